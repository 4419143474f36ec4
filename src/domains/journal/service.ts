import { getDb } from "../../db";
import type { ServiceCtx } from "../../lib/context";
import { fromCentsOrNull, type Cents } from "../../lib/money";
import { monthBounds } from "../../lib/month";
import { targetsQuery } from "../budget/queries";
import { parseTargets } from "../budget/rules";
import { getConfig } from "../config/service";
import { toResponse } from "../transactions/rules";
import { journalRowsQuery, summariesQuery } from "./queries";
import { groupDays, monthlyCeiling } from "./rules";

/** The year's annual spending ceiling in cents (a decimal-era document is converted); null when none. */
function annualCeiling(rows: { data: unknown }[]): Cents | null {
  const data = rows[0]?.data;
  return data === undefined ? null : parseTargets(data).spending_ceiling;
}

/** The journal: a month's live (not deleted, not ignored) rows by day, newest first. */
export async function getJournal(ctx: ServiceCtx, month: string) {
  const { user_id } = await getConfig(ctx);
  const { lo, hi } = monthBounds(month);
  const db = getDb(ctx.env.DB);
  const year = Number(month.slice(0, 4));
  // One round trip: the rows, the day summaries and the budget targets (every table exists: the
  // migrations make them all).
  const [rows, s, c] = await db.batch([
    journalRowsQuery(db, lo, hi),
    summariesQuery(db, user_id, month),
    targetsQuery(db, user_id, year),
  ]);
  const summaries = Object.fromEntries(s.map((x) => [x.day, x.summary]));
  const ceiling = annualCeiling(c);
  const { days, monthTotal } = groupDays(
    rows.map((r) => ({
      dateFileName: r.DateFileName,
      type: r.TransactionType,
      amount: r.Amount,
      tx: toResponse(r),
    })),
    summaries,
  );
  return {
    month,
    days,
    month_total: monthTotal,
    transaction_count: rows.length,
    budget_ceiling: fromCentsOrNull(monthlyCeiling(ceiling)),
  };
}

export async function listDaySummaries(ctx: ServiceCtx, month: string) {
  const { user_id } = await getConfig(ctx);
  const rows = await summariesQuery(getDb(ctx.env.DB), user_id, month);
  return { month, summaries: Object.fromEntries(rows.map((r) => [r.day, r.summary])) };
}
