/**
 * The one place a column is declared. Every table of the journal, under SPEC.md's stored names.
 * Migrations (migrations/NNNN_*.sql) create these tables; test/integration/schema-drift.test.ts
 * fails when the two disagree (tables, columns, types, not-null, primary keys, indexes).
 * Row and insert types derive from here (`typeof transactions.$inferSelect`); never re-type a row.
 *
 * Money: `transactions.Amount` is INTEGER cents. The API and the data export speak SPEC.md's
 * decimal `Amount`; src/lib/money.ts converts at that boundary and nowhere else.
 */
import { sql } from "drizzle-orm";
import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { jsonText } from "./json-column";
import type { CategoryAudit } from "../categorize/audit";
import type { GroupsDoc, TargetsDoc } from "../domains/budget/rules";
import type { ExtractionAudit, TransactionContext } from "../ingest/types";
import type { StoredConfig } from "../domains/config/schemas";
import type { Cents } from "../lib/money";
import type { AnyKvValue, KvKey } from "./kv";

const nowIso = sql`(strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))`;

export const schemaVersion = sqliteTable("schema_version", {
  version: integer("version").primaryKey(),
  applied_at: text("applied_at").notNull(),
});

export const transactions = sqliteTable(
  "transactions",
  {
    ForwardedTo: text("ForwardedTo").notNull(),
    DateFileName: text("DateFileName").notNull(),
    TransactionHash: text("TransactionHash"),
    UserId: text("UserId"),
    Institution: text("Institution"),
    /** Integer cents (migration 0007). */
    Amount: integer("Amount").$type<Cents>(),
    Company: text("Company"),
    TransactionType: text("TransactionType"),
    Category: text("Category"),
    Name: text("Name"),
    Date: text("Date"),
    FileName: text("FileName"),
    FromName: text("FromName"),
    FromEmail: text("FromEmail"),
    ToName: text("ToName"),
    ToEmail: text("ToEmail"),
    Subject: text("Subject"),
    Body: text("Body"),
    /** JSON map (CategoryAudit; read: ingest/stored.ts). */
    CategoryAudit: jsonText("CategoryAudit").$type<CategoryAudit | Record<string, unknown>>(),
    /** JSON map (ExtractionAudit; read: ingest/stored.ts). */
    ExtractionAudit: jsonText("ExtractionAudit").$type<ExtractionAudit>(),
    Ignored: integer("Ignored").notNull().default(0),
    Comment: text("Comment"),
    DeletedAt: text("DeletedAt"),
    /** JSON map (TransactionContext, cents; read: ingest/stored.ts readContext). */
    TransactionContext: jsonText("TransactionContext").$type<TransactionContext>(),
    StatementSource: text("StatementSource"),
    CreatedAt: text("CreatedAt").notNull().default(nowIso),
  },
  (t) => [
    primaryKey({ columns: [t.ForwardedTo, t.DateFileName] }),
    index("idx_transactions_month").on(t.DateFileName),
    index("idx_transactions_user_month").on(t.UserId, t.DateFileName),
    index("idx_transactions_created").on(t.CreatedAt),
    uniqueIndex("uq_transactions_hash").on(t.ForwardedTo, t.TransactionHash),
    index("idx_transactions_user_company").on(t.UserId, sql`${t.Company} COLLATE NOCASE`),
    index("idx_transactions_category").on(sql`${t.Category} COLLATE NOCASE`),
    // Covers the month-range reads (summary, income, budget, merchants, search filters and the
    // CSV export's columns): a date range is read from the index alone, with no lookup of the row
    // (migration 0014). Only the list reads (audit JSON, context) go to the table.
    index("idx_transactions_month_cover").on(
      t.DateFileName,
      t.TransactionType,
      t.Ignored,
      t.DeletedAt,
      t.Amount,
      t.Category,
      t.Company,
      t.Date,
      t.Institution,
      t.Name,
      t.Comment,
      t.ForwardedTo,
    ),
  ],
);

/** Application configuration: one JSON document (AppConfig fields), versioned. */
export const appConfig = sqliteTable("app_config", {
  id: text("id").primaryKey(),
  /** Read through config/rules.ts `parseStored` (zod; defaults when unreadable, logged). */
  data: jsonText("data").notNull().$type<StoredConfig>(),
  version: integer("version").notNull().default(1),
  updated_at: text("updated_at").notNull(),
});

/** Recipient address (forwarded-to) → UserId (ForwardedTo compared NOCASE). */
export const userMappings = sqliteTable("user_mappings", {
  ForwardedTo: text("ForwardedTo").primaryKey(),
  UserId: text("UserId").notNull(),
  created_at: text("created_at").notNull().default(nowIso),
});

/** Mailbox poller state: the health heartbeat and the UID cursor. */
export const pollerState = sqliteTable("poller_state", {
  id: text("id").primaryKey(),
  last_uid: integer("last_uid").notNull().default(0),
  uid_validity: integer("uid_validity"),
  last_poll_at: text("last_poll_at"),
  last_attempt_at: text("last_attempt_at"),
  next_attempt_at: text("next_attempt_at"),
  consecutive_failures: integer("consecutive_failures").notNull().default(0),
  last_error: text("last_error"),
  /** Messages above the cursor left to read after the last step (null until the first poll). */
  backlog: integer("backlog"),
  /** A running step's claim: no other invocation claims the mailbox before this time. */
  lease_until: text("lease_until"),
});

/** Parse-failure quarantine: relevant emails that yielded no usable transaction. */
export const parseFailures = sqliteTable(
  "parse_failures",
  {
    id: text("id").primaryKey(),
    status: text("status").notNull().default("quarantined"),
    failure_stage: text("failure_stage").notNull(),
    institution: text("institution"),
    forwarded_to: text("forwarded_to"),
    from_name: text("from_name"),
    from_email: text("from_email"),
    to_email: text("to_email"),
    subject: text("subject"),
    body: text("body"),
    email_date: text("email_date"),
    raw_key: text("raw_key"),
    /** JSON object: what the parse found and why it failed (read: ingest/quarantine.ts readFailureDetail). */
    detail: jsonText("detail").$type<Record<string, unknown>>(),
    resolved_tx: text("resolved_tx"),
    created_at: text("created_at").notNull(),
    updated_at: text("updated_at").notNull(),
  },
  (t) => [
    index("idx_parse_failures_created").on(t.created_at),
    index("idx_parse_failures_status").on(t.status, t.created_at),
  ],
);

/** Small runtime state (AI categorization status, caches, notice stamps): a declared key → its JSON value (db/kv.ts). */
export const kvState = sqliteTable("kv_state", {
  key: text("key").primaryKey().$type<KvKey>(),
  value: jsonText("value").notNull().$type<AnyKvValue>(),
  updated_at: text("updated_at").notNull(),
});

/** The user's category list (replaces the 39 defaults after first use); name compared NOCASE. */
export const categories = sqliteTable("categories", {
  name: text("name").primaryKey(),
  group_name: text("group_name"),
  icon: text("icon"),
  position: integer("position").notNull().default(0),
});

/** Company → category overrides (resolver tiers 0–3); company compared NOCASE. */
export const overrides = sqliteTable("overrides", {
  company: text("company").primaryKey(),
  category: text("category").notNull(),
  created_at: text("created_at").notNull(),
  updated_at: text("updated_at").notNull(),
});

/** Merchant aliases (resolver tier 2); raw_name compared NOCASE. */
export const merchantAliases = sqliteTable("merchant_aliases", {
  raw_name: text("raw_name").primaryKey(),
  canonical: text("canonical").notNull(),
  created_at: text("created_at").notNull(),
  updated_at: text("updated_at").notNull(),
});

/** Budget configuration: per user and year, two items (targets, groups), each versioned. */
export const budgetConfig = sqliteTable(
  "budget_config",
  {
    user_id: text("user_id").notNull(),
    year: integer("year").notNull(),
    kind: text("kind", { enum: ["targets", "groups"] }).notNull(),
    /**
     * JSON document; money inside it is integer cents (migration 0007). Read through budget/rules.ts
     * parseTargets / parseGroups (a decimal-era document is converted).
     */
    data: jsonText("data").notNull().$type<TargetsDoc | GroupsDoc>(),
    version: integer("version").notNull().default(1),
    updated_at: text("updated_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.user_id, t.year, t.kind] })],
);

/** Bearer tokens: only the SHA-256 (hex) of the raw `fin_…` value is stored. */
export const apiTokens = sqliteTable("api_tokens", {
  id: text("id").primaryKey(),
  label: text("label").notNull(),
  scope: text("scope", { enum: ["read", "read+write"] })
    .notNull()
    .default("read+write"),
  token_hash: text("token_hash").notNull().unique(),
  created_at: text("created_at").notNull(),
  last_used_at: text("last_used_at"),
  revoked_at: text("revoked_at"),
});

/** The single owner's password (PBKDF2), session signing state and the wrong-password counter. */
export const authSettings = sqliteTable("auth_settings", {
  id: text("id").primaryKey(),
  password_hash: text("password_hash"),
  password_salt: text("password_salt"),
  password_iterations: integer("password_iterations"),
  password_updated_at: text("password_updated_at"),
  session_epoch: integer("session_epoch").notNull().default(1),
  session_secret: text("session_secret"),
  failed_logins: integer("failed_logins").notNull().default(0),
  locked_until: text("locked_until"),
  updated_at: text("updated_at").notNull(),
});

/** Activity ledger: one row per successful mutating API call. */
export const activityLog = sqliteTable(
  "activity_log",
  {
    seq: integer("seq").primaryKey(),
    id: text("id").notNull().unique(),
    ts: text("ts").notNull(),
    principal_kind: text("principal_kind"),
    principal_id: text("principal_id"),
    principal_label: text("principal_label"),
    operation_id: text("operation_id"),
    method: text("method"),
    path: text("path"),
    resource_kind: text("resource_kind"),
    resource_id: text("resource_id"),
    summary: text("summary"),
    /** JSON: the entry's before/after images (read by type: src/domains/activity/images.ts). */
    before_json: jsonText("before_json").$type<object>(),
    after_json: jsonText("after_json").$type<object>(),
    reversible: integer("reversible").notNull().default(0),
    reverted_at: text("reverted_at"),
    reverted_by: text("reverted_by"),
  },
  (t) => [
    index("idx_activity_ts").on(t.ts),
    index("idx_activity_principal").on(t.principal_id, t.ts),
    index("idx_activity_kind").on(t.principal_kind, t.ts),
    index("idx_activity_operation").on(t.operation_id, t.ts),
  ],
);

/** Embedding cache for the fuzzy override tier: one vector (JSON array) per (model, text). */
export const embeddings = sqliteTable(
  "embeddings",
  {
    model: text("model").notNull(),
    text: text("text").notNull(),
    /** JSON array of numbers (read: categorize/fuzzy.ts readVector). */
    vector: jsonText("vector").notNull().$type<number[]>(),
    created_at: text("created_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.model, t.text] })],
);

/** Transactions a person should look at (AI-rescued rows) until touched. */
export const attentionQueue = sqliteTable(
  "attention_queue",
  {
    ForwardedTo: text("ForwardedTo").notNull(),
    DateFileName: text("DateFileName").notNull(),
    reason: text("reason").notNull(),
    created_at: text("created_at").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.ForwardedTo, t.DateFileName] }),
    index("idx_attention_queue_month").on(t.DateFileName),
  ],
);

/** One monotonically increasing version per configuration list, bumped with the write it counts. */
export const configVersions = sqliteTable("config_versions", {
  name: text("name").primaryKey(),
  version: integer("version").notNull().default(0),
  updated_at: text("updated_at").notNull(),
});

/** Dismissed override suggestions under `company_lower|category_lower`. */
export const dismissedSuggestions = sqliteTable("dismissed_suggestions", {
  key: text("key").primaryKey(),
  company: text("company").notNull(),
  category: text("category").notNull(),
  dismissed_at: text("dismissed_at").notNull(),
});

/** Ignore rules: a company matching a pattern (NOCASE) is pinned to Ignored. */
export const ignoreRules = sqliteTable("ignore_rules", {
  pattern: text("pattern").primaryKey(),
  created_at: text("created_at").notNull(),
});

/** Dismissed ignore-rule suggestions (merchant NOCASE). */
export const dismissedIgnoreSuggestions = sqliteTable("dismissed_ignore_suggestions", {
  merchant: text("merchant").primaryKey(),
  dismissed_at: text("dismissed_at").notNull(),
});

/** Saved AI-written day summaries for the journal. */
export const daySummaries = sqliteTable(
  "day_summaries",
  {
    user_id: text("user_id").notNull(),
    /** YYYY-MM-DD (the DateFileName day prefix). */
    day: text("day").notNull(),
    summary: text("summary").notNull(),
    provider: text("provider"),
    model: text("model"),
    created_at: text("created_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.user_id, t.day] })],
);

export type TransactionRow = typeof transactions.$inferSelect;
export * from "./schema/attachments";
export * from "./schema/statements";
export * from "./schema/insights";
export * from "./schema/sessions";
export * from "./schema/tax";
export * from "./schema/templates";
export * from "./schema/alerts";
export * from "./schema/restore";
export * from "./schema/blocked-companies";
export * from "./schema/statement-layouts";
