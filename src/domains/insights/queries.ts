/** D1 queries of the insights domain: the briefing's month context reads and insight_briefings. */
import { and, count, desc, eq, isNotNull, isNull, lt, ne, sql } from "drizzle-orm";
import { type Db, inRange, live, spending, sumAmount } from "../../db";
import { insightBriefings, transactions as t } from "../../db/schema";

const commentedColumns = () => ({
  date: t.DateFileName,
  company: t.Company,
  amount: t.Amount,
  category: t.Category,
  comment: t.Comment,
});

/** A month's live rows with a comment, oldest first (at most 50); `onlySpending` narrows to money out. */
export const commentedRows = (db: Db, lo: string, hi: string, onlySpending = false) =>
  db
    .select(commentedColumns())
    .from(t)
    .where(
      and(
        inRange(lo, hi),
        live(),
        onlySpending ? spending() : undefined,
        isNotNull(t.Comment),
        ne(t.Comment, ""),
      ),
    )
    .orderBy(t.DateFileName)
    .limit(50);

/** A month's largest live spending rows (at most `limit`). */
export const largestSpending = (db: Db, lo: string, hi: string, limit: number) =>
  db
    .select(commentedColumns())
    .from(t)
    .where(and(inRange(lo, hi), live(), spending()))
    .orderBy(desc(t.Amount))
    .limit(limit);

/**
 * Per merchant: this range's live spending, and an earlier range's rows with how many were ignored
 * (the two statements, for the caller's batch).
 */
export function merchantIgnoreHabit(
  db: Db,
  cur: { lo: string; hi: string },
  hist: { lo: string; hi: string },
) {
  return [
    db
      .select({ company: t.Company, cents: sumAmount(), n: count() })
      .from(t)
      .where(and(inRange(cur.lo, cur.hi), live(), spending(), isNotNull(t.Company)))
      .groupBy(t.Company),
    db
      .select({
        company: t.Company,
        n: count(),
        ignored: sql<number>`SUM(CASE WHEN ${t.Ignored} <> 0 THEN 1 ELSE 0 END)`.mapWith(Number),
      })
      .from(t)
      .where(and(inRange(hist.lo, hist.hi), isNull(t.DeletedAt), spending(), isNotNull(t.Company)))
      .groupBy(t.Company),
  ] as const;
}

const b = insightBriefings;

/** The newest briefing saved for a month before `month` (at most one row). */
export const previousBriefing = (db: Db, userId: string, month: string) =>
  db
    .select({ month: b.month, generated_at: b.generated_at, content: b.content })
    .from(b)
    .where(and(eq(b.user_id, userId), lt(b.month, month)))
    .orderBy(desc(b.month), desc(b.generated_at))
    .limit(1);

/** A month's saved briefings, newest first (without their text). */
export const savedOfMonth = (db: Db, userId: string, month: string) =>
  db
    .select({ id: b.id, month: b.month, generated_at: b.generated_at, validation: b.validation })
    .from(b)
    .where(and(eq(b.user_id, userId), eq(b.month, month)))
    .orderBy(desc(b.generated_at));

/** One saved briefing of the user's month, or undefined. */
export async function savedBriefing(db: Db, id: string, userId: string, month: string) {
  const [row] = await db
    .select()
    .from(b)
    .where(and(eq(b.id, id), eq(b.user_id, userId), eq(b.month, month)));
  return row;
}

export const insertBriefing = (db: Db, row: typeof b.$inferInsert) => db.insert(b).values(row);
