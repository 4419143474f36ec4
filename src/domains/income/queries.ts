/**
 * Queries for the income statement, aggregated in SQL (cents): ONE scan of the year's rows grouped
 * by kind (income or expense), category and company, with the twelve monthly sums as columns. (Two
 * scans grouped by month returned ~8,800 rows at 100,000 transactions; this returns ~650.)
 */
import { and, eq, inArray, sql } from "drizzle-orm";
import { type Db, inRange, live } from "../../db";
import { budgetConfig as b, transactions as t } from "../../db/schema";
import { DEPOSIT_TYPES, SPENDING_TYPES } from "../../lib/transaction-types";
import type { AggRow } from "./rules";

const merchant = sql<string>`lower(trim(COALESCE(${t.Company}, '')))`;
const isIncome = sql<number>`(${inArray(t.TransactionType, [...DEPOSIT_TYPES])})`.mapWith(Number);
// Income is reported per company only: its category is one constant group.
const category = sql<string>`CASE WHEN ${isIncome} THEN '' ELSE lower(COALESCE(NULLIF(trim(${t.Category}), ''), 'uncategorized')) END`;
const MONTHS = Array.from({ length: 12 }, (_, i) => String(i + 1).padStart(2, "0"));
const monthSum = (mm: string) =>
  sql<number>`COALESCE(SUM(CASE WHEN substr(${t.DateFileName}, 6, 2) = ${mm} THEN ${t.Amount} ELSE 0 END), 0)`.mapWith(
    Number,
  );
// Aliased: D1 keys batch results by column name, and the twelve expressions read alike.
const monthCols = Object.fromEntries(MONTHS.map((mm) => [`m${mm}`, monthSum(mm).as(`m${mm}`)]));

export async function yearAggregates(db: Db, lo: string, hi: string, year: number, userId: string) {
  const [groups, budget] = await db.batch([
    db
      .select({
        income: isIncome.as("income"),
        category: category.as("category"),
        merchant: merchant.as("merchant"),
        ...monthCols,
        // SQLite: with a single max(), the bare column (Company) comes from the row holding the max.
        last_seen: sql<string>`MAX(${t.DateFileName})`.as("last_seen"),
        company: t.Company,
      })
      .from(t)
      .where(and(live(), inRange(lo, hi), inArray(t.TransactionType, [...SPENDING_TYPES, ...DEPOSIT_TYPES])))
      .groupBy(isIncome, category, merchant)
      .orderBy(isIncome, category, merchant),
    db
      .select({ data: b.data })
      .from(b)
      .where(and(eq(b.user_id, userId), eq(b.year, year), eq(b.kind, "targets"))),
  ]);
  const income: AggRow[] = [];
  const expenses: AggRow[] = [];
  for (const g of groups) {
    const into = g.income ? income : expenses;
    const base = { merchant: g.merchant, company: g.company, last_seen: g.last_seen };
    const extra = g.income ? {} : { category: g.category };
    // The rules take one row per company and month: the months with a sum, at least one.
    const rows = MONTHS.flatMap((mm) => {
      const total = Number((g as Record<string, unknown>)[`m${mm}`]);
      return total !== 0 ? [{ ...base, ...extra, ym: `${year}.${mm}`, total }] : [];
    });
    into.push(...(rows.length ? rows : [{ ...base, ...extra, ym: g.last_seen.slice(0, 7), total: 0 }]));
  }
  let doc: unknown = null;
  try {
    doc = budget[0] ? JSON.parse(budget[0].data) : null;
  } catch {
    doc = null;
  }
  return { income, expenses, budget: doc };
}
