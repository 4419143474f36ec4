/**
 * Attachments (receipts and documents). The file lives in R2 under `r2_key` (by month, named by
 * the file's hash, never by its filename); this row is its metadata and its link.
 *
 * `parse_status` (the AI receipt read, POST /attachments/{id}/parse):
 *   unparsed → parsed   a validated model answer is stored in `parse_json` (with provenance)
 *   unparsed → failed   the read failed closed; `parse_error` says why, `parse_json` is null
 *   parsed | failed → parsed | failed   parsing again replaces the previous outcome
 * A re-upload of the same file (same id) keeps the parse outcome; nothing returns to `unparsed`.
 */
import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { jsonText } from "../json-column";
import type { StoredReceipt } from "../../domains/attachments/stored";

export const attachments = sqliteTable(
  "attachments",
  {
    /** `att_` + 16 hex of SHA-256 over (file hash, original filename): a re-upload upserts. */
    id: text("id").primaryKey(),
    original_filename: text("original_filename").notNull(),
    /** Ours, from the checked file type (never the client's declared type). */
    content_type: text("content_type").notNull(),
    /** Bytes of the stored object. */
    size_bytes: integer("size_bytes").notNull(),
    /** SHA-256 (hex) of the uploaded file. */
    sha256: text("sha256").notNull(),
    kind: text("kind").notNull().default("receipt"),
    r2_key: text("r2_key").notNull(),
    /** The linked transaction's key; both null while the attachment is unfiled. */
    tx_forwarded_to: text("tx_forwarded_to"),
    tx_date_file_name: text("tx_date_file_name"),
    parse_status: text("parse_status").notNull().default("unparsed"),
    parse_error: text("parse_error"),
    /** JSON: {merchant, date, total, line_items?, method, provider, model, parsed_at, schema_version}. */
    parse_json: jsonText("parse_json").$type<StoredReceipt>(),
    created_at: text("created_at").notNull(),
    updated_at: text("updated_at").notNull(),
  },
  (t) => [
    index("idx_attachments_tx").on(t.tx_forwarded_to, t.tx_date_file_name),
    index("idx_attachments_created").on(t.created_at),
    index("idx_attachments_r2_key").on(t.r2_key),
  ],
);

export type AttachmentRow = typeof attachments.$inferSelect;
