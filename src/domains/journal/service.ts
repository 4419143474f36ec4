import type { ServiceCtx } from "../../lib/context";
import { monthBounds } from "../../lib/month";
import { getConfig } from "../config/service";
import { toResponse, type TxRow } from "../transactions/rules";
import { groupDays, monthlyCeiling } from "./rules";

type Ctx = Pick<ServiceCtx, "env" | "clock">;

async function daySummaries(db: D1Database, userId: string, month: string): Promise<Record<string, string>> {
  try {
    const { results } = await db
      .prepare(
        "SELECT day, summary FROM day_summaries WHERE user_id = ?1 AND day >= ?2 AND day < ?3 ORDER BY day",
      )
      .bind(userId, `${month}-01`, `${month}-32`)
      .all<{ day: string; summary: string }>();
    return Object.fromEntries(results.map((r) => [r.day, r.summary]));
  } catch {
    return {};
  }
}

async function annualCeiling(db: D1Database, userId: string, year: number): Promise<number | null> {
  try {
    const data = await db
      .prepare("SELECT data FROM budget_config WHERE user_id = ?1 AND year = ?2 AND kind = 'targets'")
      .bind(userId, year)
      .first<string>("data");
    const v = data ? (JSON.parse(data) as { spending_ceiling?: unknown }).spending_ceiling : null;
    return typeof v === "number" ? v : null;
  } catch {
    return null;
  }
}

/** The journal: a month's live (not deleted, not ignored) rows by day, newest first. */
export async function getJournal(ctx: Ctx, month: string) {
  const { user_id } = await getConfig({ ctx });
  const { lo, hi } = monthBounds(month);
  const db = ctx.env.DB;
  const [{ results }, summaries, ceiling] = await Promise.all([
    db
      .prepare(
        `SELECT t.*, (a.DateFileName IS NOT NULL) AS needs_attention FROM transactions t
         LEFT JOIN attention_queue a ON a.ForwardedTo = t.ForwardedTo AND a.DateFileName = t.DateFileName
         WHERE t.DateFileName >= ?1 AND t.DateFileName < ?2 AND t.DeletedAt IS NULL AND t.Ignored = 0
         ORDER BY t.DateFileName DESC`,
      )
      .bind(lo, hi)
      .all<TxRow>(),
    daySummaries(db, user_id, month),
    annualCeiling(db, user_id, Number(month.slice(0, 4))),
  ]);
  const { days, monthTotal } = groupDays(results.map(toResponse), summaries);
  return {
    month,
    days,
    month_total: monthTotal,
    transaction_count: results.length,
    budget_ceiling: monthlyCeiling(ceiling),
  };
}

export async function listDaySummaries(ctx: Ctx, month: string) {
  const { user_id } = await getConfig({ ctx });
  return { month, summaries: await daySummaries(ctx.env.DB, user_id, month) };
}
