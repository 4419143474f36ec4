/** Statements of the ignore-rule domain. Companies are compared after trimming. */
import { and, count, desc, eq, gte, isNotNull, isNull, ne, sql } from "drizzle-orm";
import type { Db } from "../../db";
import type { ListDef } from "../../db/lists";
import { dismissedIgnoreSuggestions, ignoreRules, transactions } from "../../db/schema";

const r = ignoreRules;
const d = dismissedIgnoreSuggestions;

type DismissedMerchant = typeof d.$inferSelect;

export const IGNORE_RULES: ListDef<{ pattern: string }> = {
  name: "ignore_rules",
  query: (db) => db.select({ pattern: r.pattern }).from(r).orderBy(sql`${r.pattern} COLLATE NOCASE`),
};

export const DISMISSED_IGNORE: ListDef<DismissedMerchant> = {
  name: "dismissed_ignore_suggestions",
  query: (db) =>
    db
      .select({ merchant: d.merchant, dismissed_at: d.dismissed_at })
      .from(d)
      .orderBy(desc(d.dismissed_at), d.merchant),
};

export interface CompanyCount {
  company: string;
  total: number;
  /** Rows not ignored yet (apply) or ignored rows (suggestions), per query. */
  n: number;
}

export const insertRule = (db: Db, pattern: string, nowIso: string) =>
  db.insert(r).values({ pattern, created_at: nowIso });

// `pattern` and `merchant` are NOCASE columns: `eq` matches any case.
export const deleteRule = (db: Db, pattern: string) => db.delete(r).where(eq(r.pattern, pattern));

export const upsertDismissedMerchant = (db: Db, merchant: string, nowIso: string) =>
  db
    .insert(d)
    .values({ merchant, dismissed_at: nowIso })
    .onConflictDoUpdate({ target: d.merchant, set: { merchant, dismissed_at: nowIso } });

export const deleteDismissedMerchant = (db: Db, merchant: string) =>
  db.delete(d).where(eq(d.merchant, merchant));

const t = transactions;
const company = sql<string>`trim(${t.Company})`;
const hasCompany = () => and(isNull(t.DeletedAt), isNotNull(t.Company), ne(company, ""));
const countWhere = (cond: ReturnType<typeof sql>) =>
  sql<number>`SUM(CASE WHEN ${cond} THEN 1 ELSE 0 END)`.mapWith(Number);

/** Non-deleted rows per company: `n` counts the rows still un-ignored. */
export function openCounts(db: Db) {
  return db
    .select({ company, total: count(), n: countWhere(sql`${t.Ignored} = 0`) })
    .from(t)
    .where(hasCompany())
    .groupBy(company);
}

/** Non-deleted rows per company since `fromPrefix`: `n` counts the ignored rows. */
export const ignoredCountsQuery = (db: Db, fromPrefix: string) =>
  db
    .select({ company, total: count(), n: countWhere(sql`${t.Ignored} <> 0`) })
    .from(t)
    .where(and(hasCompany(), gte(t.DateFileName, fromPrefix)))
    .groupBy(company);
