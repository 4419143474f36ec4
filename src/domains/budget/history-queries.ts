/**
 * Spending aggregates for budgets, all computed in D1 over DateFileName month ranges (indexed):
 * spending types only (purchase, withdrawal, preauth), deleted and ignored rows excluded,
 * categories compared lowercased. No year of rows ever reaches JS.
 */
import { LIVE, SPENDING_SQL } from "../../lib/money";

export interface Bounds {
  lo: string;
  hi: string;
}

const WHERE = `DateFileName >= ?1 AND DateFileName < ?2 AND ${LIVE} AND ${SPENDING_SQL}`;
const KEY = "lower(trim(COALESCE(Category, 'uncategorized')))";

/** Per month (`YYYY.MM`) and category: total, row count, and spend through day `day`. */
export function monthlyByCategory(db: D1Database, b: Bounds, day = 31) {
  return db
    .prepare(
      `SELECT substr(DateFileName, 1, 7) AS month, ${KEY} AS key, SUM(Amount) AS total, COUNT(*) AS n,
         SUM(CASE WHEN CAST(substr(DateFileName, 9, 2) AS INTEGER) <= ?3 THEN Amount ELSE 0 END) AS to_date
       FROM transactions WHERE ${WHERE} GROUP BY 1, 2`,
    )
    .bind(b.lo, b.hi, day);
}

/** Per category: the total over a range (a compare year). */
export function totalsByCategory(db: D1Database, b: Bounds) {
  return db
    .prepare(`SELECT ${KEY} AS key, SUM(Amount) AS total FROM transactions WHERE ${WHERE} GROUP BY 1`)
    .bind(b.lo, b.hi);
}

/**
 * Recurring charge candidates: the same company and amount (to the cent) charged in at least
 * `minMonths` distinct months of the range, per category.
 */
export function recurringCharges(db: D1Database, b: Bounds, minMonths: number) {
  return db
    .prepare(
      `SELECT ${KEY} AS key, lower(trim(COALESCE(Company, ''))) AS company, ROUND(Amount, 2) AS amount,
         COUNT(DISTINCT substr(DateFileName, 1, 7)) AS months
       FROM transactions WHERE ${WHERE} AND COALESCE(trim(Company), '') <> ''
       GROUP BY 1, 2, 3 HAVING months >= ?3`,
    )
    .bind(b.lo, b.hi, minMonths);
}

/** Company and amount pairs charged in a range (this month's arrivals), per category. */
export function chargesByCompany(db: D1Database, b: Bounds) {
  return db
    .prepare(
      `SELECT ${KEY} AS key, lower(trim(COALESCE(Company, ''))) AS company, ROUND(Amount, 2) AS amount
       FROM transactions WHERE ${WHERE} GROUP BY 1, 2, 3`,
    )
    .bind(b.lo, b.hi);
}

export interface MonthCategoryRow {
  month: string;
  key: string;
  total: number;
  n: number;
  to_date: number;
}
export interface KeyTotalRow {
  key: string;
  total: number;
}
export interface ChargeRow {
  key: string;
  company: string;
  amount: number;
}
