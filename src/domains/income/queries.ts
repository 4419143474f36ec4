/** Queries for the income statement: per company and month, aggregated in SQL (cents). */
import { and, eq, type SQL, sql } from "drizzle-orm";
import { type Db, deposits, inRange, live, spending, sumAmount } from "../../db";
import { budgetConfig as b, transactions as t } from "../../db/schema";

const merchant = sql<string>`lower(trim(COALESCE(${t.Company}, '')))`;
const ym = sql<string>`substr(${t.DateFileName}, 1, 7)`;
const category = sql<string>`lower(COALESCE(NULLIF(trim(${t.Category}), ''), 'uncategorized'))`;
// SQLite: with a single max(), the bare column (Company) comes from the row holding the max.
const columns = {
  merchant,
  ym,
  total: sumAmount(),
  last_seen: sql<string>`MAX(${t.DateFileName})`,
  company: t.Company,
};
const where = (lo: string, hi: string, kind: SQL) => and(live(), inRange(lo, hi), kind);

export async function yearAggregates(db: Db, lo: string, hi: string, year: number, userId: string) {
  const [income, expenses, budget] = await db.batch([
    db
      .select(columns)
      .from(t)
      .where(where(lo, hi, deposits()))
      .groupBy(merchant, ym),
    db
      .select({ category, ...columns })
      .from(t)
      .where(where(lo, hi, spending()))
      .groupBy(category, merchant, ym),
    db
      .select({ data: b.data })
      .from(b)
      .where(and(eq(b.user_id, userId), eq(b.year, year), eq(b.kind, "targets"))),
  ]);
  let doc: unknown = null;
  try {
    doc = budget[0] ? JSON.parse(budget[0].data) : null;
  } catch {
    doc = null;
  }
  return { income, expenses, budget: doc };
}
