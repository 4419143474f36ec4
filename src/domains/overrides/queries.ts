/** D1 statements of the override domain (overrides and dismissed suggestions). */
import type { Correction } from "./rules";

export const OVERRIDES_LIST = "overrides";
export const OVERRIDE_SQL = "SELECT company, category FROM overrides ORDER BY company COLLATE NOCASE";
export const DISMISSED_LIST = "dismissed_suggestions";
export const DISMISSED_SQL =
  "SELECT key, company, category, dismissed_at FROM dismissed_suggestions ORDER BY key";

export interface OverrideEntry {
  company: string;
  category: string;
}

export interface DismissedRow {
  key: string;
  company: string;
  category: string;
  dismissed_at: string;
}

export const getOverride = (db: D1Database, company: string) =>
  db
    .prepare("SELECT company, category FROM overrides WHERE company = ?")
    .bind(company)
    .first<OverrideEntry>();

/** Creates or replaces an override; the key keeps the casing of the latest write. */
export const upsertOverride = (db: D1Database, e: OverrideEntry, nowIso: string) =>
  db
    .prepare(
      `INSERT INTO overrides (company, category, created_at, updated_at) VALUES (?1, ?2, ?3, ?3)
       ON CONFLICT (company) DO UPDATE SET company = ?1, category = ?2, updated_at = ?3`,
    )
    .bind(e.company, e.category, nowIso);

export const deleteOverrideRow = (db: D1Database, company: string) =>
  db.prepare("DELETE FROM overrides WHERE company = ?").bind(company);

export const upsertDismissed = (db: D1Database, r: DismissedRow) =>
  db
    .prepare(
      `INSERT INTO dismissed_suggestions (key, company, category, dismissed_at) VALUES (?1, ?2, ?3, ?4)
       ON CONFLICT (key) DO UPDATE SET company = ?2, category = ?3, dismissed_at = ?4`,
    )
    .bind(r.key, r.company, r.category, r.dismissed_at);

export const deleteDismissed = (db: D1Database, key: string) =>
  db.prepare("DELETE FROM dismissed_suggestions WHERE key = ?").bind(key);

/**
 * Manual corrections since `fromPrefix` (a `YYYY.MM.DD` DateFileName prefix), counted per exact
 * company and category; case folding happens in rules (SQLite's lower() is ASCII-only).
 */
export async function correctionCounts(db: D1Database, fromPrefix: string): Promise<Correction[]> {
  const audit = (field: string) =>
    `CASE WHEN json_valid(CategoryAudit) THEN json_extract(CategoryAudit, '$.${field}') END`;
  const { results } = await db
    .prepare(
      `SELECT trim(Company) AS company, Category AS category, COUNT(*) AS n,
              MAX(COALESCE(${audit("reviewed_at")}, CreatedAt)) AS last_corrected
       FROM transactions
       WHERE DeletedAt IS NULL AND DateFileName >= ?1
         AND Company IS NOT NULL AND trim(Company) <> '' AND Category IS NOT NULL AND Category <> ''
         AND ${audit("source")} IN ('manual', 'manual_edit', 'manual_bulk')
       GROUP BY trim(Company), Category`,
    )
    .bind(fromPrefix)
    .all<Correction>();
  return results;
}
