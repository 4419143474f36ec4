/** D1 queries for merchant intelligence: per-merchant monthly aggregates and the 1-hour cache row. */
import { LIVE, SPENDING_SQL } from "../../lib/money";

const MERCHANT = "lower(trim(Company))";
const SPEND = `${LIVE} AND ${SPENDING_SQL} AND DateFileName >= ?1 AND DateFileName < ?2`;
const NAMED = `${SPEND} AND Company IS NOT NULL AND trim(Company) <> ''`;

export interface MonthAgg {
  merchant: string;
  ym: string;
  total: number;
  n: number;
}
export interface NameAgg {
  merchant: string;
  category: string;
  n: number;
  last_seen: string;
  company: string;
}

/** Monthly totals and counts per merchant, the merchants' spellings and categories, and the last month's total. */
export async function merchantAggregates(db: D1Database, lo: string, hi: string, lastLo: string) {
  const [monthly, names, last] = await db.batch<Record<string, unknown>>([
    db
      .prepare(
        `SELECT ${MERCHANT} AS merchant, substr(DateFileName, 1, 7) AS ym, SUM(Amount) AS total, COUNT(*) AS n
         FROM transactions WHERE ${NAMED} GROUP BY 1, 2`,
      )
      .bind(lo, hi),
    // SQLite: with a single max(), the bare column (Company) comes from the row holding the max.
    db
      .prepare(
        `SELECT ${MERCHANT} AS merchant, lower(COALESCE(NULLIF(trim(Category), ''), 'uncategorized')) AS category,
           COUNT(*) AS n, MAX(DateFileName) AS last_seen, trim(Company) AS company
         FROM transactions WHERE ${NAMED} GROUP BY 1, 2`,
      )
      .bind(lo, hi),
    db.prepare(`SELECT COALESCE(SUM(Amount), 0) AS total FROM transactions WHERE ${SPEND}`).bind(lastLo, hi),
  ]);
  return {
    monthly: (monthly?.results ?? []) as unknown as MonthAgg[],
    names: (names?.results ?? []) as unknown as NameAgg[],
    lastMonthTotal: Number(last?.results[0]?.total ?? 0),
  };
}

export async function readCache(db: D1Database, key: string) {
  return db
    .prepare("SELECT value, updated_at FROM kv_state WHERE key = ?")
    .bind(key)
    .first<{ value: string; updated_at: string }>();
}

export async function writeCache(db: D1Database, key: string, value: unknown, nowIso: string) {
  await db
    .prepare(
      `INSERT INTO kv_state (key, value, updated_at) VALUES (?1, ?2, ?3)
       ON CONFLICT (key) DO UPDATE SET value = ?2, updated_at = ?3`,
    )
    .bind(key, JSON.stringify(value), nowIso)
    .run();
}
