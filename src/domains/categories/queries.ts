/** Statements of the category domain. Transactions' Category is compared case-insensitively. */
import { count, eq, exists, notExists, or, sql } from "drizzle-orm";
import type { Db } from "../../db";
import type { ListDef, Statement } from "../../db/lists";
import { categories, transactions } from "../../db/schema";
import { overrideCountQuery } from "../overrides/queries";
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

/** The stored list's names in list order (categorize/categories.ts categoryNames finishes it). */
export const categoriesQuery = (db: Db) => db.select({ name: c.name }).from(c).orderBy(c.position, c.name);

/** Stores the default rows (first write); harmless when they are already there. */
export function materialize(db: Db, rows: CategoryRow[]): Statement[] {
  return rows.map((r) => db.insert(c).values(r).onConflictDoNothing());
}

/**
 * True while `name` is a listed category: a stored row (NOCASE), or any name while no list is
 * stored and the defaults are in effect (the caller validated it against them). Checked inside
 * the write itself, so a rename or delete landing between validation and write cannot leave the
 * row in a category that no longer exists.
 */
export const categoryListed = (db: Db, name: string) =>
  or(
    exists(db.select({ one: sql`1` }).from(c).where(eq(c.name, name))),
    notExists(db.select({ one: sql`1` }).from(c)),
  );

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

export async function usageCounts(
  db: Db,
  name: string,
): Promise<{ transactions: number; overrides: number }> {
  const [tx, ov] = await db.batch([
    db.select({ n: count() }).from(t).where(sameCategory(name)),
    overrideCountQuery(db, name),
  ]);
  return { transactions: tx[0]?.n ?? 0, overrides: ov[0]?.n ?? 0 };
}
