/** D1 queries for the income statement: per company and month, aggregated in SQL. */
import { DEPOSIT_SQL, LIVE, SPENDING_SQL } from "../../lib/money";
import type { AggRow } from "./rules";

// SQLite: with a single max(), the bare column (Company) comes from the row holding the max.
const COLUMNS = `lower(trim(COALESCE(Company, ''))) AS merchant, substr(DateFileName, 1, 7) AS ym,
  SUM(Amount) AS total, MAX(DateFileName) AS last_seen, Company AS company`;
const RANGE = `${LIVE} AND DateFileName >= ?1 AND DateFileName < ?2`;

export async function yearAggregates(db: D1Database, lo: string, hi: string, year: number, userId: string) {
  const [income, expenses, budget] = await db.batch<Record<string, unknown>>([
    db
      .prepare(`SELECT ${COLUMNS} FROM transactions WHERE ${RANGE} AND ${DEPOSIT_SQL} GROUP BY 1, 2`)
      .bind(lo, hi),
    db
      .prepare(
        `SELECT lower(COALESCE(NULLIF(trim(Category), ''), 'uncategorized')) AS category, ${COLUMNS}
         FROM transactions WHERE ${RANGE} AND ${SPENDING_SQL} GROUP BY 1, 2, 3`,
      )
      .bind(lo, hi),
    db
      .prepare("SELECT data FROM budget_config WHERE user_id = ? AND year = ? AND kind = 'targets'")
      .bind(userId, year),
  ]);
  const raw = budget?.results[0]?.data;
  let doc: unknown = null;
  try {
    doc = typeof raw === "string" ? JSON.parse(raw) : null;
  } catch {
    doc = null;
  }
  return {
    income: (income?.results ?? []) as unknown as AggRow[],
    expenses: (expenses?.results ?? []) as unknown as AggRow[],
    budget: doc,
  };
}
