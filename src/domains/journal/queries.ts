/** D1 queries of the journal: its month's rows (with the attention flag), and day_summaries. */
import { and, desc, eq, gte, lt, sql } from "drizzle-orm";
import { type Db, inRange, live } from "../../db";
import { daySummaries, transactions } from "../../db/schema";
import { fromCents, ZERO_CENTS } from "../../lib/money";
import { monthBounds } from "../../lib/month";
import { listedWithAttention } from "../transactions/queries";
import { dayOf } from "./rules";
import type { DayLine } from "./summaries-rules";

export const summariesQuery = (db: Db, userId: string, month: string) => {
  const d = daySummaries;
  return db
    .select({ day: d.day, summary: d.summary })
    .from(d)
    .where(and(eq(d.user_id, userId), gte(d.day, `${month}-01`), lt(d.day, `${month}-32`)))
    .orderBy(d.day);
};

/** A month's live rows, newest first, in the list shape (a query: awaited, or one of a batch). */
export const journalRowsQuery = (db: Db, lo: string, hi: string) =>
  listedWithAttention(db, and(inRange(lo, hi), live())).orderBy(desc(transactions.DateFileName));

/** The month's live transactions, oldest first (unexecuted: `dayLines` runs it, or a batch). */
const dayRowsQuery = (db: Db, month: string) => {
  const t = transactions;
  const { lo, hi } = monthBounds(month);
  return db
    .select({
      dfn: t.DateFileName,
      company: t.Company,
      amount: t.Amount,
      type: t.TransactionType,
      category: t.Category,
      comment: t.Comment,
    })
    .from(t)
    .where(and(inRange(lo, hi), live()))
    .orderBy(t.DateFileName);
};

type DayRow = Awaited<ReturnType<typeof dayRowsQuery>>[number];

/** The rows as prompt lines, by day (YYYY-MM-DD). */
function byDay(rows: DayRow[]): Record<string, DayLine[]> {
  const out: Record<string, DayLine[]> = {};
  for (const r of rows) {
    const day = dayOf(r.dfn);
    out[day] = out[day] ?? [];
    out[day].push({
      company: r.company ?? "",
      amount: fromCents(r.amount ?? ZERO_CENTS),
      type: r.type ?? "",
      category: r.category ?? "",
      comment: r.comment || null,
    });
  }
  return out;
}

/** The month's live transactions as prompt lines, by day (YYYY-MM-DD). */
export async function dayLines(db: Db, month: string): Promise<Record<string, DayLine[]>> {
  return byDay(await dayRowsQuery(db, month));
}

/** What starting a month's summaries needs, in ONE read batch: its lines by day, its days done. */
export async function monthToSummarize(db: Db, userId: string, month: string) {
  const [rows, done] = await db.batch([dayRowsQuery(db, month), summariesQuery(db, userId, month)]);
  return { lines: byDay(rows), done: new Set(done.map((r) => r.day)) };
}

/** Stores (or replaces) one day's summary. */
export const saveDaySummary = (db: Db, row: typeof daySummaries.$inferInsert) =>
  db
    .insert(daySummaries)
    .values(row)
    .onConflictDoUpdate({
      target: [daySummaries.user_id, daySummaries.day],
      set: {
        summary: row.summary,
        provider: row.provider,
        model: row.model,
        created_at: sql`excluded.created_at`,
      },
    });
