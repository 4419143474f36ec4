/** Month aggregates, all computed in D1 over DateFileName ranges (indexed). */
import { DEPOSIT_SQL, LIVE, SPENDING_SQL } from "../../lib/money";
import type { GroupRow } from "./rules";

type B = { lo: string; hi: string };
const RANGE = "DateFileName >= ?1 AND DateFileName < ?2";

export function byCategory(db: D1Database, b: B) {
  return db
    .prepare(
      `SELECT lower(COALESCE(Category, 'uncategorized')) AS key, SUM(Amount) AS amount, COUNT(*) AS n
       FROM transactions WHERE ${RANGE} AND ${LIVE} AND ${SPENDING_SQL} GROUP BY 1`,
    )
    .bind(b.lo, b.hi);
}

export function byCompany(db: D1Database, b: B, deposits: boolean) {
  return db
    .prepare(
      `SELECT lower(COALESCE(Company, '')) AS key, MAX(COALESCE(Company, '(no company)')) AS label,
         MAX(lower(COALESCE(Category, 'uncategorized'))) AS category, SUM(Amount) AS amount, COUNT(*) AS n
       FROM transactions WHERE ${RANGE} AND ${LIVE} AND ${deposits ? DEPOSIT_SQL : SPENDING_SQL} GROUP BY 1`,
    )
    .bind(b.lo, b.hi);
}

/** Spending by month and category over a range (anomaly baselines, trends). */
export function byMonthCategory(db: D1Database, b: B) {
  return db
    .prepare(
      `SELECT substr(DateFileName, 1, 7) AS month, lower(COALESCE(Category, 'uncategorized')) AS key,
         SUM(Amount) AS amount, COUNT(*) AS n
       FROM transactions WHERE ${RANGE} AND ${LIVE} AND ${SPENDING_SQL} GROUP BY 1, 2`,
    )
    .bind(b.lo, b.hi);
}

/** The month's spending that carries a comment, by category. */
export function commentedByCategory(db: D1Database, b: B) {
  return db
    .prepare(
      `SELECT lower(COALESCE(Category, 'uncategorized')) AS key, SUM(Amount) AS amount, COUNT(*) AS n
       FROM transactions WHERE ${RANGE} AND ${LIVE} AND ${SPENDING_SQL} AND COALESCE(trim(Comment), '') <> '' GROUP BY 1`,
    )
    .bind(b.lo, b.hi);
}

/** Per month: spending through day `day` (DateFileName's DD) and the month total. */
export function toDateByMonth(db: D1Database, b: B, day: number) {
  return db
    .prepare(
      `SELECT substr(DateFileName, 1, 7) AS month,
         SUM(CASE WHEN CAST(substr(DateFileName, 9, 2) AS INTEGER) <= ?3 THEN Amount ELSE 0 END) AS to_date,
         SUM(Amount) AS total
       FROM transactions WHERE ${RANGE} AND ${LIVE} AND ${SPENDING_SQL} GROUP BY 1`,
    )
    .bind(b.lo, b.hi, day);
}

export const rows = (r: D1Result<Record<string, unknown>> | undefined): GroupRow[] =>
  (r?.results ?? []).map((x) => ({
    key: String(x.key ?? ""),
    label: x.label === undefined ? undefined : String(x.label),
    category: x.category === undefined ? undefined : String(x.category),
    amount: Number(x.amount ?? 0),
    n: Number(x.n ?? 0),
  }));
