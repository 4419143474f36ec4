/**
 * Statement PDF layouts a person taught (which x-span is the date, the description, the amounts and
 * the balance), found again by the fingerprint of the bank's page; and the synthetic key each review
 * row was given at upload (the DateFileName its import writes).
 */
import { integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { jsonText } from "../json-column";
import type { HeaderWord } from "../../domains/statements/layouts/fingerprint";
import type { LayoutMarks } from "../../domains/statements/layouts/read";

export const statementLayouts = sqliteTable(
  "statement_layouts",
  {
    /** `lay_` + 16 hex. */
    id: text("id").primaryKey(),
    name: text("name").notNull(),
    institution: text("institution").notNull(),
    /** Header words and their column positions (domains/statements/layouts/fingerprint.ts). */
    fingerprint: text("fingerprint").notNull(),
    /** JSON: the header line's words with their x positions (read: layouts/stored.ts). */
    header: jsonText("header").notNull().$type<HeaderWord[]>(),
    /** JSON LayoutMarks: the x-span of each marked column (read: layouts/stored.ts). */
    marks: jsonText("marks").notNull().$type<LayoutMarks>(),
    source_statement_id: text("source_statement_id"),
    match_count: integer("match_count").notNull().default(0),
    last_matched_at: text("last_matched_at"),
    created_at: text("created_at").notNull(),
    updated_at: text("updated_at").notNull(),
  },
  (t) => [uniqueIndex("idx_statement_layouts_fingerprint").on(t.fingerprint)],
);

export const statementRowKeys = sqliteTable(
  "statement_row_keys",
  {
    statement_id: text("statement_id").notNull(),
    tx_index: integer("tx_index").notNull(),
    /** The synthetic key (`YYYY.MM.DD_00.00_stmt_<institution>_<hash8>.<ext>`). */
    date_file_name: text("date_file_name").notNull(),
  },
  (t) => [primaryKey({ columns: [t.statement_id, t.tx_index] })],
);

export type StatementLayoutRecord = typeof statementLayouts.$inferSelect;
