/** D1 statements of the merchant-alias domain (tier 2 of the override resolver). */
import type { AliasRow } from "../../ingest/categorize/rules";

export type { AliasRow };
export const ALIASES_LIST = "merchant_aliases";
export const ALIAS_SQL = "SELECT raw_name, canonical FROM merchant_aliases ORDER BY raw_name COLLATE NOCASE";

export const getAlias = (db: D1Database, rawName: string) =>
  db
    .prepare("SELECT raw_name, canonical FROM merchant_aliases WHERE raw_name = ?")
    .bind(rawName)
    .first<AliasRow>();

export const upsertAlias = (db: D1Database, a: AliasRow, nowIso: string) =>
  db
    .prepare(
      `INSERT INTO merchant_aliases (raw_name, canonical, created_at, updated_at) VALUES (?1, ?2, ?3, ?3)
       ON CONFLICT (raw_name) DO UPDATE SET raw_name = ?1, canonical = ?2, updated_at = ?3`,
    )
    .bind(a.raw_name, a.canonical, nowIso);

export const deleteAliasRow = (db: D1Database, rawName: string) =>
  db.prepare("DELETE FROM merchant_aliases WHERE raw_name = ?").bind(rawName);
