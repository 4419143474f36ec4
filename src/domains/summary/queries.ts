/**
 * Month aggregates, all computed in D1 over DateFileName ranges; sums are integer cents. All but
 * the commented one read only columns of idx_transactions_month_cover (no row lookups).
 */
import { asCents, type Cents } from "../../lib/money";
import { and, count, type SQL, sql } from "drizzle-orm";
import { categoryKeySql, type Db, deposits, inRange, live, spending, sumAmount } from "../../db";
import { cell, col, packedShape } from "../../db/packed";
import { transactions as t } from "../../db/schema";
import type { GroupRow } from "./rules";

type B = { lo: string; hi: string };

/** The rows' amounts through day `day` of their month (DateFileName's DD), in cents. */
export const sumThroughDay = (day: number) =>
  sql<Cents>`COALESCE(SUM(CASE WHEN CAST(substr(${t.DateFileName}, 9, 2) AS INTEGER) <= ${day} THEN ${t.Amount} ELSE 0 END), 0)`.mapWith(
    (v) => asCents(Number(v)),
  );

const category = categoryKeySql();
const month = sql<string>`substr(${t.DateFileName}, 1, 7)`;
const where = (b: B, kind: SQL, ...more: SQL[]) => and(inRange(b.lo, b.hi), live(), kind, ...more);

/**
 * Spending (or deposits) by company: per company its key, latest-sorting spelling, a category,
 * total and count, handed over as ONE JSON text of arrays (hundreds of groups a month; one value
 * is far cheaper for D1 to hand over than their cells). companyRows reads it.
 */
const companyKey = sql<string>`lower(COALESCE(${t.Company}, ''))`;
/** One company group: its key, latest-sorting spelling, a category, total (cents) and count. */
const COMPANY_GROUP = packedShape({
  key: col(companyKey, cell.text),
  label: col(sql`MAX(COALESCE(${t.Company}, '(no company)'))`, cell.text),
  category: col(sql`MAX(${category})`, cell.text),
  amount: col(sumAmount(), cell.number),
  n: col(sql`count(*)`, cell.number),
});

/** Plan: SEARCH transactions USING COVERING INDEX idx_transactions_month_cover (asserted in summary.test.ts). */
export function byCompany(db: Db, b: B, deposit: boolean) {
  const groups = db
    .select({ j: COMPANY_GROUP.row() })
    .from(t)
    .where(where(b, deposit ? deposits() : spending()))
    .groupBy(companyKey)
    .orderBy(companyKey)
    .as("c");
  return COMPANY_GROUP.pack(db, groups);
}

/** byCompany's JSON text as rows, in key order. */
export function companyRows(packed: { json: string }[]): GroupRow[] {
  // The packed amount cell is the rows' SUM(Amount): integer cents (the storage boundary).
  return COMPANY_GROUP.decodeParts(packed).map((r) => ({ ...r, amount: asCents(r.amount) }));
}

/** Spending by month (`YYYY.MM`) and category over a range (anomaly baselines, trends). */
export function byMonthCategory(db: Db, b: B) {
  return db
    .select({ month, key: category, amount: sumAmount(), n: count() })
    .from(t)
    .where(where(b, spending()))
    .groupBy(month, category);
}

/**
 * The summary's window in one scan of the covering month index: per month (`YYYY.MM`) and
 * category, the spending, its count and the part through day `day` (DateFileName's DD). The
 * month's and the previous month's categories, the baseline months and the pace's month-to-date
 * sums are all read from these groups.
 */
export function windowByMonthCategory(db: Db, b: B, day: number) {
  return db
    .select({
      month,
      key: category,
      amount: sumAmount(),
      n: count(),
      to_date: sumThroughDay(day),
    })
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
