/**
 * Month aggregates, all computed in D1 over DateFileName ranges (idx_transactions_month); sums
 * are integer cents.
 */
import { and, count, type SQL, sql } from "drizzle-orm";
import { type Db, deposits, inRange, live, spending, sumAmount } from "../../db";
import { transactions as t } from "../../db/schema";

type B = { lo: string; hi: string };

const category = sql<string>`lower(COALESCE(${t.Category}, 'uncategorized'))`;
const month = sql<string>`substr(${t.DateFileName}, 1, 7)`;
const where = (b: B, kind: SQL, ...more: SQL[]) => and(inRange(b.lo, b.hi), live(), kind, ...more);

export function byCategory(db: Db, b: B) {
  return db
    .select({ key: category, amount: sumAmount(), n: count() })
    .from(t)
    .where(where(b, spending()))
    .groupBy(category);
}

export function byCompany(db: Db, b: B, deposit: boolean) {
  const key = sql<string>`lower(COALESCE(${t.Company}, ''))`;
  return db
    .select({
      key,
      label: sql<string>`MAX(COALESCE(${t.Company}, '(no company)'))`,
      category: sql<string>`MAX(${category})`,
      amount: sumAmount(),
      n: count(),
    })
    .from(t)
    .where(where(b, deposit ? deposits() : spending()))
    .groupBy(key);
}

/** Spending by month (`YYYY.MM`) and category over a range (anomaly baselines, trends). */
export function byMonthCategory(db: Db, b: B) {
  return db
    .select({ month, key: category, amount: sumAmount(), n: count() })
    .from(t)
    .where(where(b, spending()))
    .groupBy(month, category);
}

/** The month's spending that carries a comment, by category. */
export function commentedByCategory(db: Db, b: B) {
  return db
    .select({ key: category, amount: sumAmount(), n: count() })
    .from(t)
    .where(where(b, spending(), sql`COALESCE(trim(${t.Comment}), '') <> ''`))
    .groupBy(category);
}

/** Per month: spending through day `day` (DateFileName's DD) and the month total. */
export function toDateByMonth(db: Db, b: B, day: number) {
  return db
    .select({
      month,
      to_date:
        sql<number>`COALESCE(SUM(CASE WHEN CAST(substr(${t.DateFileName}, 9, 2) AS INTEGER) <= ${day} THEN ${t.Amount} ELSE 0 END), 0)`.mapWith(
          Number,
        ),
      total: sumAmount(),
    })
    .from(t)
    .where(where(b, spending()))
    .groupBy(month);
}
