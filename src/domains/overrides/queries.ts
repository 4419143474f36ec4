/** Statements of the override domain (overrides and dismissed suggestions). */
import { and, count, eq, gte, isNotNull, isNull, ne, sql } from "drizzle-orm";
import type { Db } from "../../db";
import type { ListDef } from "../../db/lists";
import { dismissedSuggestions, overrides, transactions } from "../../db/schema";

const o = overrides;
const d = dismissedSuggestions;

export type OverrideEntry = Pick<typeof o.$inferSelect, "company" | "category">;
type DismissedRow = typeof d.$inferSelect;

export const OVERRIDES: ListDef<OverrideEntry> = {
  name: "overrides",
  query: (db) =>
    db.select({ company: o.company, category: o.category }).from(o).orderBy(sql`${o.company} COLLATE NOCASE`),
};

/** Every override as stored (no order): the resolver's index is built from these. */
export const overridePairs = (db: Db) => db.select({ company: o.company, category: o.category }).from(o);

export const DISMISSED: ListDef<DismissedRow> = {
  name: "dismissed_suggestions",
  query: (db) =>
    db
      .select({ key: d.key, company: d.company, category: d.category, dismissed_at: d.dismissed_at })
      .from(d)
      .orderBy(d.key),
};

/** The stored override of `company` (a NOCASE column: `eq` finds it in any case), or null. */
export const getOverride = async (db: Db, company: string): Promise<OverrideEntry | null> =>
  (await db.select({ company: o.company, category: o.category }).from(o).where(eq(o.company, company)))[0] ??
  null;

/** Creates or replaces an override; the key keeps the casing of the latest write. */
export const upsertOverride = (db: Db, e: OverrideEntry, nowIso: string) =>
  db
    .insert(o)
    .values({ ...e, created_at: nowIso, updated_at: nowIso })
    .onConflictDoUpdate({ target: o.company, set: { ...e, updated_at: nowIso } });

/** An override written unless the company has one (a statement for the caller's batch: the demo). */
export const insertOverrideIfAbsent = (db: Db, e: OverrideEntry, nowIso: string) =>
  db
    .insert(o)
    .values({ ...e, created_at: nowIso, updated_at: nowIso })
    .onConflictDoNothing();

const sameOverrideCategory = (name: string) => sql`${o.category} = ${name} COLLATE NOCASE`;

/** Moves every override of category `from` to `to` (a statement for the category's batch). */
export const reassignOverrides = (db: Db, from: string, to: string, nowIso: string) =>
  db.update(o).set({ category: to, updated_at: nowIso }).where(sameOverrideCategory(from));

/** How many overrides name a category (a query for a batch). */
export const overrideCountQuery = (db: Db, category: string) =>
  db.select({ n: count() }).from(o).where(sameOverrideCategory(category));

export const deleteOverrideRow = (db: Db, company: string) => db.delete(o).where(eq(o.company, company));

export const upsertDismissed = (db: Db, r: DismissedRow) =>
  db
    .insert(d)
    .values(r)
    .onConflictDoUpdate({
      target: d.key,
      set: { company: r.company, category: r.category, dismissed_at: r.dismissed_at },
    });

/** A dismissal by key (0 or 1 row). */
export const dismissedQuery = (db: Db, key: string) => db.select().from(d).where(eq(d.key, key));

export const deleteDismissed = (db: Db, key: string) => db.delete(d).where(eq(d.key, key));

const t = transactions;
/** A CategoryAudit field, null when the audit is not valid JSON. */
const audit = (field: string) =>
  sql<
    string | null
  >`CASE WHEN json_valid(${t.CategoryAudit}) THEN json_extract(${t.CategoryAudit}, ${`$.${field}`}) END`;
const company = sql<string>`trim(${t.Company})`;

/**
 * Manual corrections since `fromPrefix` (a `YYYY.MM.DD` DateFileName prefix), counted per exact
 * company and category; case folding happens in rules (SQLite's lower() is ASCII-only).
 */
export const correctionCountsQuery = (db: Db, fromPrefix: string) =>
  db
    .select({
      company,
      category: sql<string>`${t.Category}`,
      n: count(),
      last_corrected: sql<string>`MAX(COALESCE(${audit("reviewed_at")}, ${t.CreatedAt}))`,
    })
    .from(t)
    .where(
      and(
        isNull(t.DeletedAt),
        gte(t.DateFileName, fromPrefix),
        isNotNull(t.Company),
        ne(company, ""),
        isNotNull(t.Category),
        ne(t.Category, ""),
        sql`${audit("source")} IN ('manual', 'manual_edit', 'manual_bulk')`,
      ),
    )
    .groupBy(company, t.Category);

/** Past companies with their latest category, for `include_history` (newest first, capped). */
export async function historyCorpus(db: Db): Promise<OverrideEntry[]> {
  // SQLite takes the bare Category from the row holding MAX(DateFileName): the latest one.
  const rows = await db
    .select({ company, category: sql<string>`${t.Category}`, latest: sql<string>`MAX(${t.DateFileName})` })
    .from(t)
    .where(and(isNull(t.DeletedAt), isNotNull(t.Company), ne(company, ""), isNotNull(t.Category)))
    .groupBy(company)
    .orderBy(sql`MAX(${t.DateFileName}) DESC`)
    .limit(500);
  return rows.map((r) => ({ company: r.company, category: r.category }));
}
