/**
 * Queries for the income statement: per company and month, aggregated in SQL (cents), in ONE scan of
 * the year's rows for income and expenses both (grouped by kind first; income has no category).
 */
import { and, eq, inArray, sql } from "drizzle-orm";
import { type Db, inRange, live, sumAmount } from "../../db";
import { budgetConfig as b, transactions as t } from "../../db/schema";
import { DEPOSIT_TYPES, SPENDING_TYPES } from "../../lib/transaction-types";
import type { AggRow } from "./rules";

const isIncome = sql<number>`(${inArray(t.TransactionType, [...DEPOSIT_TYPES])})`.mapWith(Number);
const category = sql<string>`CASE WHEN ${isIncome} THEN '' ELSE lower(COALESCE(NULLIF(trim(${t.Category}), ''), 'uncategorized')) END`;
const merchant = sql<string>`lower(trim(COALESCE(${t.Company}, '')))`;
const ym = sql<string>`substr(${t.DateFileName}, 1, 7)`;

export async function yearAggregates(db: Db, lo: string, hi: string, year: number, userId: string) {
  const [groups, budget] = await db.batch([
    db
      .select({
        // Aliased: D1 keys batch results by column name.
        income: isIncome.as("income"),
        category: category.as("category"),
        merchant: merchant.as("merchant"),
        ym: ym.as("ym"),
        total: sumAmount().as("total"),
        // SQLite: with a single max(), the bare column (Company) comes from the row holding the max.
        last_seen: sql<string>`MAX(${t.DateFileName})`.as("last_seen"),
        company: t.Company,
      })
      .from(t)
      .where(and(live(), inRange(lo, hi), inArray(t.TransactionType, [...SPENDING_TYPES, ...DEPOSIT_TYPES])))
      .groupBy(isIncome, category, merchant, ym)
      .orderBy(isIncome, category, merchant, ym),
    db
      .select({ data: b.data })
      .from(b)
      .where(and(eq(b.user_id, userId), eq(b.year, year), eq(b.kind, "targets"))),
  ]);
  // The rows go to the rules as they are (an income row's category, '', is never read).
  const income: AggRow[] = [];
  const expenses: AggRow[] = [];
  for (const g of groups) (g.income ? income : expenses).push(g);
  let doc: unknown = null;
  try {
    doc = budget[0] ? JSON.parse(budget[0].data) : null;
  } catch {
    doc = null;
  }
  return { income, expenses, budget: doc };
}
