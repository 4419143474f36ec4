/**
 * Uploaded bank statements and their review rows. The file lives in R2 under `r2_key` (per
 * institution, named by the file's hash, never by its filename). Money columns are integer cents.
 *
 * Statement `status` is computed from its rows' actions (see domains/statements/rules.ts):
 *   pending_review → in_progress   a person changed an action, company or category
 *   in_progress → complete         an import ran and every row's action is settled
 */
import { index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { jsonText } from "../json-column";
import type { Cents } from "../../lib/money";
import type { CsvMapping } from "../../domains/statements/parsers/csv";
import type { StoredCsvState, StoredDbMatch } from "../../domains/statements/stored";

export const statements = sqliteTable(
  "statements",
  {
    /** `stmt_` + 16 hex. */
    id: text("id").primaryKey(),
    filename: text("filename").notNull(),
    /** pdf | csv | ofx | qfx */
    file_kind: text("file_kind").notNull().default("pdf"),
    /** SHA-256 (hex) of the uploaded file. */
    file_sha256: text("file_sha256").notNull(),
    r2_key: text("r2_key").notNull(),
    institution: text("institution").notNull(),
    account_type: text("account_type").notNull(),
    period_start: text("period_start"),
    period_end: text("period_end"),
    parsed_with_ai: integer("parsed_with_ai").notNull().default(0),
    /** 1 when opening + rows reached every printed balance and the closing balance. */
    balance_ok: integer("balance_ok").notNull().default(0),
    /** JSON array of strings: what the parse could not confirm (read: statements/stored.ts). */
    warnings: jsonText("warnings").notNull().$type<string[]>().default([]),
    /** CSV only, JSON: {header, mapping, confirmed} — the columns the rows were read with. */
    csv_mapping: jsonText("csv_mapping").$type<StoredCsvState>(),
    status: text("status").notNull().default("pending_review"),
    uploaded_at: text("uploaded_at").notNull(),
    updated_at: text("updated_at").notNull(),
    completed_at: text("completed_at"),
  },
  (t) => [index("idx_statements_uploaded").on(t.uploaded_at), index("idx_statements_sha").on(t.file_sha256)],
);

export const statementRows = sqliteTable(
  "statement_rows",
  {
    statement_id: text("statement_id").notNull(),
    tx_index: integer("tx_index").notNull(),
    /** `sr_` + 12 hex over (statement, date, amount, type, raw description, occurrence). */
    row_id: text("row_id").notNull(),
    date: text("date").notNull(),
    raw_description: text("raw_description").notNull(),
    cleaned_description: text("cleaned_description").notNull(),
    amount: integer("amount").notNull().$type<Cents>(),
    /** withdrawal | deposit */
    type: text("type").notNull(),
    balance: integer("balance").$type<Cents>(),
    /** Identical same-day rows before this one (the synthetic key's occurrence suffix). */
    occurrence: integer("occurrence").notNull().default(0),
    /** OFX/QFX FITID, when the file has one. */
    fitid: text("fitid"),
    /** matched | ambiguous | suspected_duplicate | new | previously_imported */
    reconcile_tier: text("reconcile_tier").notNull(),
    db_forwarded_to: text("db_forwarded_to"),
    db_date_file_name: text("db_date_file_name"),
    db_company: text("db_company"),
    db_amount: integer("db_amount").$type<Cents>(),
    db_category: text("db_category"),
    db_transaction_type: text("db_transaction_type"),
    company_differs: integer("company_differs").notNull().default(0),
    enrichable: integer("enrichable").notNull().default(0),
    reason: text("reason"),
    /** JSON array of StatementDbMatch (amounts in cents), for ambiguous rows. */
    candidates: jsonText("candidates").$type<StoredDbMatch[]>(),
    suggested_category: text("suggested_category").notNull(),
    action: text("action").notNull(),
    /** 1 once a person changed the action, company or category (reparse keeps these). */
    edited: integer("edited").notNull().default(0),
    edited_company: text("edited_company"),
    edited_category: text("edited_category"),
    /** imported | enriched | updated | skipped | duplicate */
    action_result: text("action_result"),
    acted_at: text("acted_at"),
  },
  (t) => [
    primaryKey({ columns: [t.statement_id, t.tx_index] }),
    index("idx_statement_rows_row").on(t.row_id),
    index("idx_statement_rows_db").on(t.db_forwarded_to, t.db_date_file_name),
  ],
);

/** A CSV column mapping the person confirmed, by header layout (the lowercased header row). */
export const statementCsvMappings = sqliteTable("statement_csv_mappings", {
  signature: text("signature").primaryKey(),
  institution: text("institution").notNull(),
  /** JSON CsvMapping (domains/statements/parsers/csv.ts). */
  mapping: jsonText("mapping").notNull().$type<CsvMapping>(),
  confirmed_at: text("confirmed_at").notNull(),
});

export type StatementRecord = typeof statements.$inferSelect;
export type StatementRowRecord = typeof statementRows.$inferSelect;
export type StatementRowInsert = typeof statementRows.$inferInsert;
