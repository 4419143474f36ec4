/** Statements of the category domain. Transactions' Category is compared case-insensitively. */
import { count, eq, sql } from "drizzle-orm";
import type { Db } from "../../db";
import type { ListDef, Statement } from "../../db/lists";
import { categories, overrides, transactions } from "../../db/schema";
import { targetsOfYear } from "../budget/queries";
import type { CategoryRow } from "./defaults";

const c = categories;

/** The stored list in list order (empty until the first write stores the defaults). */
export const CATEGORIES: ListDef<CategoryRow> = {
  name: "categories",
  query: (db) =>
    db
      .select({ name: c.name, group_name: c.group_name, icon: c.icon, position: c.position })
      .from(c)
      .orderBy(c.position, c.name),
};

/** Stores the default rows (first write); harmless when they are already there. */
export function materialize(db: Db, rows: CategoryRow[]): Statement[] {
  return rows.map((r) => db.insert(c).values(r).onConflictDoNothing());
}

export const insertCategory = (db: Db, r: CategoryRow) => db.insert(c).values(r);

// `name` is a NOCASE column: `eq` matches any case, as the list's lookups do.
export const renameCategoryRow = (db: Db, oldName: string, newName: string) =>
  db.update(c).set({ name: newName }).where(eq(c.name, oldName));

export const deleteCategoryRow = (db: Db, name: string) => db.delete(c).where(eq(c.name, name));

export const setGroup = (db: Db, name: string, group: string | null) =>
  db.update(c).set({ group_name: group }).where(eq(c.name, name));

export const setIcon = (db: Db, name: string, icon: string | null) =>
  db.update(c).set({ icon }).where(eq(c.name, name));

const t = transactions;
const sameCategory = (name: string) => sql`${t.Category} = ${name} COLLATE NOCASE`;
const sameOverrideCategory = (name: string) => sql`${overrides.category} = ${name} COLLATE NOCASE`;

/**
 * Moves every transaction of `from` to `to`. Rows stored lowercased (email rows) stay
 * lowercased; rows stored with their display case get the display case.
 */
export const reassignTransactions = (db: Db, from: string, to: string) =>
  db
    .update(t)
    .set({ Category: sql`CASE WHEN ${t.Category} = lower(${t.Category}) THEN lower(${to}) ELSE ${to} END` })
    .where(sameCategory(from));

export const reassignOverrides = (db: Db, from: string, to: string, nowIso: string) =>
  db.update(overrides).set({ category: to, updated_at: nowIso }).where(sameOverrideCategory(from));

export async function usageCounts(
  db: Db,
  name: string,
): Promise<{ transactions: number; overrides: number }> {
  const [tx, ov] = await db.batch([
    db.select({ n: count() }).from(t).where(sameCategory(name)),
    db.select({ n: count() }).from(overrides).where(sameOverrideCategory(name)),
  ]);
  return { transactions: tx[0]?.n ?? 0, overrides: ov[0]?.n ?? 0 };
}

/** This year's budget-targets documents (any user); read-only, for the usage report. */
export async function budgetTargetDocs(db: Db, year: number): Promise<unknown[]> {
  const rows = await targetsOfYear(db, year);
  return rows.map((data) => {
    try {
      return JSON.parse(data) as unknown;
    } catch {
      return null;
    }
  });
}
