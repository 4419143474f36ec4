/** D1 statements of the ignore-rule domain. Companies are compared after trimming. */

export const IGNORE_LIST = "ignore_rules";
export const IGNORE_SQL = "SELECT pattern FROM ignore_rules ORDER BY pattern COLLATE NOCASE";
export const DISMISSED_IGNORE_LIST = "dismissed_ignore_suggestions";
export const DISMISSED_IGNORE_SQL =
  "SELECT merchant, dismissed_at FROM dismissed_ignore_suggestions ORDER BY dismissed_at DESC, merchant";

export interface DismissedMerchant {
  merchant: string;
  dismissed_at: string;
}

export interface CompanyCount {
  company: string;
  total: number;
  /** Rows not ignored yet (apply) or ignored rows (suggestions), per query. */
  n: number;
}

export const insertRule = (db: D1Database, pattern: string, nowIso: string) =>
  db.prepare("INSERT INTO ignore_rules (pattern, created_at) VALUES (?, ?)").bind(pattern, nowIso);

export const deleteRule = (db: D1Database, pattern: string) =>
  db.prepare("DELETE FROM ignore_rules WHERE pattern = ?").bind(pattern);

export const upsertDismissedMerchant = (db: D1Database, merchant: string, nowIso: string) =>
  db
    .prepare(
      `INSERT INTO dismissed_ignore_suggestions (merchant, dismissed_at) VALUES (?1, ?2)
       ON CONFLICT (merchant) DO UPDATE SET merchant = ?1, dismissed_at = ?2`,
    )
    .bind(merchant, nowIso);

export const deleteDismissedMerchant = (db: D1Database, merchant: string) =>
  db.prepare("DELETE FROM dismissed_ignore_suggestions WHERE merchant = ?").bind(merchant);

/** Non-deleted rows per company: `n` counts the rows still un-ignored. */
export async function openCounts(db: D1Database): Promise<CompanyCount[]> {
  const { results } = await db
    .prepare(
      `SELECT trim(Company) AS company, COUNT(*) AS total, SUM(CASE WHEN Ignored = 0 THEN 1 ELSE 0 END) AS n
       FROM transactions WHERE DeletedAt IS NULL AND Company IS NOT NULL AND trim(Company) <> ''
       GROUP BY trim(Company)`,
    )
    .all<CompanyCount>();
  return results;
}

/** Non-deleted rows per company since `fromPrefix`: `n` counts the ignored rows. */
export async function ignoredCounts(db: D1Database, fromPrefix: string): Promise<CompanyCount[]> {
  const { results } = await db
    .prepare(
      `SELECT trim(Company) AS company, COUNT(*) AS total, SUM(CASE WHEN Ignored <> 0 THEN 1 ELSE 0 END) AS n
       FROM transactions WHERE DeletedAt IS NULL AND DateFileName >= ?1
         AND Company IS NOT NULL AND trim(Company) <> ''
       GROUP BY trim(Company)`,
    )
    .bind(fromPrefix)
    .all<CompanyCount>();
  return results;
}

/** Flips un-ignored, non-deleted rows of these companies to Ignored (chunks under D1's bind limit). */
export function ignoreCompanies(db: D1Database, companies: string[]): D1PreparedStatement[] {
  const out: D1PreparedStatement[] = [];
  for (let i = 0; i < companies.length; i += 90) {
    const chunk = companies.slice(i, i + 90);
    out.push(
      db
        .prepare(
          `UPDATE transactions SET Ignored = 1 WHERE DeletedAt IS NULL AND Ignored = 0
           AND trim(Company) IN (${chunk.map(() => "?").join(",")})`,
        )
        .bind(...chunk),
    );
  }
  return out;
}
