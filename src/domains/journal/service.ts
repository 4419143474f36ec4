import { type Db, getDb } from "../../db";
import type { ServiceCtx } from "../../lib/context";
import { fromCentsOrNull } from "../../lib/money";
import { monthBounds } from "../../lib/month";
import { targetsQuery } from "../budget/queries";
import { parseTargets } from "../budget/rules";
import { getConfig } from "../config/service";
import { toResponse } from "../transactions/rules";
import { journalRowsQuery, summariesQuery } from "./queries";
import { groupDays, monthlyCeiling } from "./rules";

type Ctx = Pick<ServiceCtx, "env" | "clock">;

/** The year's annual spending ceiling in cents (a decimal-era document is converted); null when none. */
function annualCeiling(rows: { data: unknown }[]): number | null {
  const data = rows[0]?.data;
  return data === undefined ? null : parseTargets(data).spending_ceiling;
}

async function summariesOf(db: Db, userId: string, month: string): Promise<Record<string, string>> {
  try {
    const rows = await summariesQuery(db, userId, month);
    return Object.fromEntries(rows.map((r) => [r.day, r.summary]));
  } catch {
    return {};
  }
}

/** The journal: a month's live (not deleted, not ignored) rows by day, newest first. */
export async function getJournal(ctx: Ctx, month: string) {
  const { user_id } = await getConfig({ ctx });
  const { lo, hi } = monthBounds(month);
  const db = getDb(ctx.env.DB);
  const year = Number(month.slice(0, 4));
  const rowsQuery = journalRowsQuery(db, lo, hi);
  // One round trip. The day summaries and the ceiling are extras: when the batch fails (a table
  // missing on an old journal), the rows are read alone and the extras fail open as before.
  let rows: Awaited<typeof rowsQuery>;
  let summaries: Record<string, string>;
  let ceiling: number | null;
  try {
    const [r, s, c] = await db.batch([
      rowsQuery,
      summariesQuery(db, user_id, month),
      targetsQuery(db, user_id, year),
    ]);
    rows = r;
    summaries = Object.fromEntries(s.map((x) => [x.day, x.summary]));
    ceiling = annualCeiling(c);
  } catch {
    rows = await rowsQuery;
    summaries = await summariesOf(db, user_id, month);
    ceiling = await targetsQuery(db, user_id, year).then(annualCeiling, () => null);
  }
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

export async function listDaySummaries(ctx: Ctx, month: string) {
  const { user_id } = await getConfig({ ctx });
  return { month, summaries: await summariesOf(getDb(ctx.env.DB), user_id, month) };
}
