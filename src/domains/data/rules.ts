/** What the backup zip holds. Pure: table lists and row shaping, no I/O. */
import { fromCents, asCents } from "../../lib/money";

/** Exported tables, in restore order. Secrets and caches are never exported (see EXCLUDED). */
export const EXPORTED_TABLES = [
  "transactions",
  "attention_queue",
  "parse_failures",
  "categories",
  "overrides",
  "merchant_aliases",
  "ignore_rules",
  "dismissed_suggestions",
  "dismissed_ignore_suggestions",
  "budget_config",
  "app_config",
  "user_mappings",
  "day_summaries",
  "insight_briefings",
  "attachments",
  "statements",
  "statement_rows",
  "statement_csv_mappings",
  "statement_layouts",
  "statement_row_keys",
  "tax_overrides",
  "tax_mapping",
  "activity_log",
  "alert_templates",
  "ignored_emails",
  "sender_trust",
  "card_names",
  "blocked_companies",
] as const;

/**
 * Token hashes, the password hash and session secret, sessions and login throttles, OAuth tokens,
 * and rebuildable state (caches, the poller cursor, list versions, the migration record, a restore's
 * staging rows) stay out.
 * Every table of src/db/schema.ts is in exactly one of the two lists (a test checks).
 */
export const EXCLUDED_TABLES = [
  "api_tokens",
  "auth_settings",
  "sessions",
  "login_throttle",
  "vendor_connections",
  "embeddings",
  "kv_state",
  "poller_state",
  "config_versions",
  "schema_version",
  "restore_staging",
] as const;

/** Columns holding JSON text that the export writes as JSON values. */
const JSON_COLUMNS = new Set([
  "CategoryAudit",
  "ExtractionAudit",
  "TransactionContext",
  "data",
  "before_json",
  "after_json",
  "detail",
]);

/**
 * A stored row as the backup writes it: JSON columns as JSON values, and a transaction's `Amount`
 * as SPEC.md's decimal number (stored in cents), so backups read the same before and after the
 * move to cents.
 */
export function shapeRow(table: string, row: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(row)) {
    if (k === "_rid") continue;
    if (table === "transactions" && k === "Amount" && typeof v === "number") {
      out[k] = fromCents(asCents(v));
      continue;
    }
    if (JSON_COLUMNS.has(k) && typeof v === "string") {
      try {
        out[k] = JSON.parse(v);
        continue;
      } catch {
        // not JSON after all: keep the text
      }
    }
    out[k] = v;
  }
  return out;
}

export function exportFileName(nowIso: string): string {
  return `finance-journal-backup-${nowIso.slice(0, 19).replaceAll(":", "").replace("T", "_")}.zip`;
}
