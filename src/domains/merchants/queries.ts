/**
 * Queries for merchant intelligence: per-merchant monthly aggregates (cents, over the month-range
 * index) and the 1-hour cache row in kv_state.
 */
import { and, count, eq, sql } from "drizzle-orm";
import { type Db, inRange, live, spending, sumAmount } from "../../db";
import { kvState, transactions as t } from "../../db/schema";

const merchant = sql<string>`lower(trim(${t.Company}))`;
const spend = (lo: string, hi: string) => and(live(), spending(), inRange(lo, hi));
const named = (lo: string, hi: string) =>
  and(spend(lo, hi), sql`${t.Company} IS NOT NULL AND trim(${t.Company}) <> ''`);

/** Monthly totals and counts per merchant, the merchants' spellings and categories, and the last month's total. */
export async function merchantAggregates(db: Db, lo: string, hi: string, lastLo: string) {
  const ym = sql<string>`substr(${t.DateFileName}, 1, 7)`;
  const category = sql<string>`lower(COALESCE(NULLIF(trim(${t.Category}), ''), 'uncategorized'))`;
  const [monthly, names, last] = await db.batch([
    db
      .select({ merchant, ym, total: sumAmount(), n: count() })
      .from(t)
      .where(named(lo, hi))
      .groupBy(merchant, ym),
    // SQLite: with a single max(), the bare column (Company) comes from the row holding the max.
    db
      .select({
        merchant,
        category,
        n: count(),
        last_seen: sql<string>`MAX(${t.DateFileName})`,
        company: sql<string>`trim(${t.Company})`,
      })
      .from(t)
      .where(named(lo, hi))
      .groupBy(merchant, category),
    db.select({ total: sumAmount() }).from(t).where(spend(lastLo, hi)),
  ]);
  return { monthly, names, lastMonthTotal: last[0]?.total ?? 0 };
}

export async function readCache(db: Db, key: string) {
  const rows = await db
    .select({ value: kvState.value, updated_at: kvState.updated_at })
    .from(kvState)
    .where(eq(kvState.key, key));
  return rows[0] ?? null;
}

export async function writeCache(db: Db, key: string, value: unknown, nowIso: string) {
  const row = { value: JSON.stringify(value), updated_at: nowIso };
  await db
    .insert(kvState)
    .values({ key, ...row })
    .onConflictDoUpdate({ target: kvState.key, set: row });
}
