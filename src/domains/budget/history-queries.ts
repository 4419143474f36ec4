/**
 * Spending aggregates for budgets, all computed in D1 over DateFileName month ranges
 * (idx_transactions_month): spending types only (purchase, withdrawal, preauth), deleted and
 * ignored rows excluded, categories compared lowercased. Sums are integer cents. No year of rows
 * ever reaches JS.
 */
import { asCents, type Cents } from "../../lib/money";
import { and, count, type SQL, sql } from "drizzle-orm";
import { categoryKeySql, type Db, inRange, live, spending, sumAmount } from "../../db";
import { sumThroughDay } from "../summary/queries";
import { transactions as t } from "../../db/schema";

export interface Bounds {
  lo: string;
  hi: string;
}

const where = (b: Bounds, ...more: SQL[]) => and(inRange(b.lo, b.hi), live(), spending(), ...more);
const key = categoryKeySql();
const month = sql<string>`substr(${t.DateFileName}, 1, 7)`;
const company = sql<string>`lower(trim(COALESCE(${t.Company}, '')))`;
const amount = sql<Cents>`${t.Amount}`.mapWith((v) => asCents(Number(v)));

/** Per month (`YYYY.MM`) and category: total, row count, and spend through day `day`. */
export function monthlyByCategory(db: Db, b: Bounds, day = 31) {
  return db
    .select({
      month,
      key,
      total: sumAmount(),
      n: count(),
      to_date: sumThroughDay(day),
    })
    .from(t)
    .where(where(b))
    .groupBy(month, key);
}

/** Per category: the total over a range (a compare year). */
export function totalsByCategory(db: Db, b: Bounds) {
  return db.select({ key, total: sumAmount() }).from(t).where(where(b)).groupBy(key);
}

/**
 * Recurring charge candidates: the same company and amount (to the cent) charged in at least
 * `minMonths` distinct months of the range, per category.
 */
export function recurringCharges(db: Db, b: Bounds, minMonths: number) {
  return db
    .select({ key, company, amount })
    .from(t)
    .where(where(b, sql`COALESCE(trim(${t.Company}), '') <> ''`))
    .groupBy(key, company, t.Amount)
    .having(sql`COUNT(DISTINCT ${month}) >= ${minMonths}`);
}

/** Company and amount pairs charged in a range (this month's arrivals), per category. */
export function chargesByCompany(db: Db, b: Bounds) {
  return db.select({ key, company, amount }).from(t).where(where(b)).groupBy(key, company, t.Amount);
}

export type MonthCategoryRow = Awaited<ReturnType<typeof monthlyByCategory>>[number];
