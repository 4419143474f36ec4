/** D1 statements of the category domain. Transactions' Category is compared case-insensitively. */
import type { CategoryRow } from "./defaults";

export const CATEGORIES_LIST = "categories";
export const CATEGORY_SQL = "SELECT name, group_name, icon, position FROM categories ORDER BY position, name";

/** Stores the default rows (first write); harmless when they are already there. */
export function materialize(db: D1Database, rows: CategoryRow[]): D1PreparedStatement[] {
  return rows.map((r) =>
    db
      .prepare("INSERT OR IGNORE INTO categories (name, group_name, icon, position) VALUES (?, ?, ?, ?)")
      .bind(r.name, r.group_name, r.icon, r.position),
  );
}

export const insertCategory = (db: D1Database, r: CategoryRow) =>
  db
    .prepare("INSERT INTO categories (name, group_name, icon, position) VALUES (?, ?, ?, ?)")
    .bind(r.name, r.group_name, r.icon, r.position);

export const renameCategoryRow = (db: D1Database, oldName: string, newName: string) =>
  db.prepare("UPDATE categories SET name = ?2 WHERE name = ?1").bind(oldName, newName);

export const deleteCategoryRow = (db: D1Database, name: string) =>
  db.prepare("DELETE FROM categories WHERE name = ?").bind(name);

export const setGroup = (db: D1Database, name: string, group: string | null) =>
  db.prepare("UPDATE categories SET group_name = ?2 WHERE name = ?1").bind(name, group);

export const setIcon = (db: D1Database, name: string, icon: string | null) =>
  db.prepare("UPDATE categories SET icon = ?2 WHERE name = ?1").bind(name, icon);

/**
 * Moves every transaction of `from` to `to`. Rows stored lowercased (email rows) stay
 * lowercased; rows stored with their display case get the display case.
 */
export const reassignTransactions = (db: D1Database, from: string, to: string) =>
  db
    .prepare(
      `UPDATE transactions SET Category = CASE WHEN Category = lower(Category) THEN lower(?2) ELSE ?2 END
       WHERE Category = ?1 COLLATE NOCASE`,
    )
    .bind(from, to);

export const reassignOverrides = (db: D1Database, from: string, to: string, nowIso: string) =>
  db
    .prepare("UPDATE overrides SET category = ?2, updated_at = ?3 WHERE category = ?1 COLLATE NOCASE")
    .bind(from, to, nowIso);

export async function usageCounts(
  db: D1Database,
  name: string,
): Promise<{ transactions: number; overrides: number }> {
  const [t, o] = await db.batch<{ n: number }>([
    db.prepare("SELECT COUNT(*) AS n FROM transactions WHERE Category = ? COLLATE NOCASE").bind(name),
    db.prepare("SELECT COUNT(*) AS n FROM overrides WHERE category = ? COLLATE NOCASE").bind(name),
  ]);
  return { transactions: t?.results[0]?.n ?? 0, overrides: o?.results[0]?.n ?? 0 };
}

/** This year's budget-targets documents (any user); read-only, for the usage report. */
export async function budgetTargetDocs(db: D1Database, year: number): Promise<unknown[]> {
  const { results } = await db
    .prepare("SELECT data FROM budget_config WHERE kind = 'targets' AND year = ?")
    .bind(year)
    .all<{ data: string }>();
  return results.map((r) => {
    try {
      return JSON.parse(r.data) as unknown;
    } catch {
      return null;
    }
  });
}
