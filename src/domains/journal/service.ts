/** The journal: a month by day, with the budget's monthly ceiling. */
import { and, desc, eq, getTableColumns, gte, lt, sql } from "drizzle-orm";
import { type Db, getDb, inRange, live } from "../../db";
import { attentionQueue, daySummaries, transactions } from "../../db/schema";
import type { ServiceCtx } from "../../lib/context";
import { fromCentsOrNull } from "../../lib/money";
import { monthBounds } from "../../lib/month";
import { readTargetsData } from "../budget/queries";
import { parseTargets } from "../budget/rules";
import { getConfig } from "../config/service";
import { toResponse } from "../transactions/rules";
import { groupDays, monthlyCeiling } from "./rules";

type Ctx = Pick<ServiceCtx, "env" | "clock">;

async function summariesOf(db: Db, userId: string, month: string): Promise<Record<string, string>> {
  const d = daySummaries;
  try {
    const rows = await db
      .select({ day: d.day, summary: d.summary })
      .from(d)
      .where(and(eq(d.user_id, userId), gte(d.day, `${month}-01`), lt(d.day, `${month}-32`)))
      .orderBy(d.day);
    return Object.fromEntries(rows.map((r) => [r.day, r.summary]));
  } catch {
    return {};
  }
}

/** The year's annual spending ceiling in cents (a decimal-era document is converted); null when none. */
async function annualCeiling(db: Db, userId: string, year: number): Promise<number | null> {
  try {
    const data = await readTargetsData(db, userId, year);
    return data === null ? null : parseTargets(JSON.parse(data)).spending_ceiling;
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
  const [rows, summaries, ceiling] = await Promise.all([
    db
      .select({ ...getTableColumns(t), needs_attention: sql<number>`(${a.DateFileName} IS NOT NULL)` })
      .from(t)
      .leftJoin(a, and(eq(a.ForwardedTo, t.ForwardedTo), eq(a.DateFileName, t.DateFileName)))
      .where(and(inRange(lo, hi), live()))
      .orderBy(desc(t.DateFileName)),
    summariesOf(db, user_id, month),
    annualCeiling(db, user_id, Number(month.slice(0, 4))),
  ]);
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
