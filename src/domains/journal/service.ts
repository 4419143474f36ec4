/** The journal: a month by day, with the budget's monthly ceiling. */
import { and, desc, eq, gte, lt } from "drizzle-orm";
import { type Db, getDb, inRange, live } from "../../db";
import { attentionQueue, budgetConfig, daySummaries, transactions } from "../../db/schema";
import type { ServiceCtx } from "../../lib/context";
import { fromCentsOrNull } from "../../lib/money";
import { monthBounds } from "../../lib/month";
import { parseTargets } from "../budget/rules";
import { getConfig } from "../config/service";
import { listedColumns } from "../transactions/queries";
import { toResponse } from "../transactions/rules";
import { groupDays, monthlyCeiling } from "./rules";

type Ctx = Pick<ServiceCtx, "env" | "clock">;

const summariesQuery = (db: Db, userId: string, month: string) => {
  const d = daySummaries;
  return db
    .select({ day: d.day, summary: d.summary })
    .from(d)
    .where(and(eq(d.user_id, userId), gte(d.day, `${month}-01`), lt(d.day, `${month}-32`)))
    .orderBy(d.day);
};

const targetsQuery = (db: Db, userId: string, year: number) => {
  const b = budgetConfig;
  return db
    .select({ data: b.data })
    .from(b)
    .where(and(eq(b.user_id, userId), eq(b.year, year), eq(b.kind, "targets")));
};

/** The year's annual spending ceiling in cents (a decimal-era document is converted); null when none. */
function annualCeiling(rows: { data: string }[]): number | null {
  try {
    const data = rows[0]?.data;
    return data === undefined ? null : parseTargets(JSON.parse(data)).spending_ceiling;
  } catch {
    return null;
  }
}

/** The journal: a month's live (not deleted, not ignored) rows by day, newest first. */
export async function getJournal(ctx: Ctx, month: string) {
  const { user_id } = await getConfig({ ctx });
  const { lo, hi } = monthBounds(month);
  const db = getDb(ctx.env.DB);
  const t = transactions;
  const a = attentionQueue;
  const year = Number(month.slice(0, 4));
  const rowsQuery = db
    .select(listedColumns())
    .from(t)
    .leftJoin(a, and(eq(a.ForwardedTo, t.ForwardedTo), eq(a.DateFileName, t.DateFileName)))
    .where(and(inRange(lo, hi), live()))
    .orderBy(desc(t.DateFileName));
  // One round trip: the rows, the day summaries and the budget targets (every table exists: the
  // migrations make them all).
  const [rows, s, c] = await db.batch([
    rowsQuery,
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

export async function listDaySummaries(ctx: Ctx, month: string) {
  const { user_id } = await getConfig({ ctx });
  const rows = await summariesQuery(getDb(ctx.env.DB), user_id, month);
  return { month, summaries: Object.fromEntries(rows.map((r) => [r.day, r.summary])) };
}
