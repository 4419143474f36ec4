/**
 * Who owns which table: every table of src/db/schema.ts (and its schema/ modules) by its stored
 * name → the one folder whose queries read and write it. Any other folder asks the owner (its
 * queries.ts or service). test/unit/architecture/table-owners.test.ts fails when a file outside
 * the owner touches a table (imports its drizzle symbol or names it in raw SQL), when a table has
 * no owner here, and when an allowance there is no longer needed.
 *
 * Two rules apply to every table: src/db/ itself (schema, handles, the versioned-list writer) and
 * src/domains/data/ (export, import, backup and restore move every table by design) may touch any
 * table. `transactions` is the journal's fact table: any domain's queries file may read it (each
 * aggregate is that domain's read model over the covering index); only its owners write it.
 */
export const TABLE_OWNERS = {
  schema_version: "src/domains/data/",
  transactions: "src/domains/transactions/",
  app_config: "src/domains/config/",
  user_mappings: "src/ingest/",
  poller_state: "src/ingest/",
  parse_failures: "src/domains/parse-failures/",
  kv_state: "src/db/",
  categories: "src/domains/categories/",
  overrides: "src/domains/overrides/",
  merchant_aliases: "src/domains/merchant-aliases/",
  budget_config: "src/domains/budget/",
  api_tokens: "src/domains/auth/",
  auth_settings: "src/domains/auth/",
  activity_log: "src/domains/activity/",
  embeddings: "src/categorize/",
  attention_queue: "src/domains/transactions/",
  config_versions: "src/db/",
  dismissed_suggestions: "src/domains/overrides/",
  ignore_rules: "src/domains/ignore-rules/",
  dismissed_ignore_suggestions: "src/domains/ignore-rules/",
  day_summaries: "src/domains/journal/",
  ignored_emails: "src/domains/ignored-emails/",
  sender_trust: "src/domains/ignored-emails/",
  card_names: "src/domains/card-names/",
  attachments: "src/domains/attachments/",
  blocked_companies: "src/domains/blocked-companies/",
  insight_briefings: "src/domains/insights/",
  vendor_connections: "src/domains/insights/",
  restore_staging: "src/domains/data/",
  sessions: "src/domains/auth/",
  login_throttle: "src/domains/auth/",
  statements: "src/domains/statements/",
  statement_rows: "src/domains/statements/",
  statement_csv_mappings: "src/domains/statements/",
  statement_layouts: "src/domains/statements/",
  statement_row_keys: "src/domains/statements/",
  tax_overrides: "src/domains/tax/",
  tax_mapping: "src/domains/tax/",
  alert_templates: "src/domains/templates/",
} as const satisfies Record<string, string>;

/** Folders that may touch every table (see above). */
export const WHOLE_DATABASE = ["src/db/", "src/domains/data/"] as const;

/** Tables any domain's queries file (`queries.ts`, `*-queries.ts`) may read but not write. */
export const SHARED_READS: readonly string[] = ["transactions"];
