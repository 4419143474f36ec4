/**
 * Learned alert templates: how to read an unknown bank's alert, derived from one email
 * a person resolved by hand. `pattern` holds only fixed text and slots (never the typed values);
 * `example` is the masked rendering shown on the Rules page.
 */
import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { jsonText } from "../json-column";
import type { TemplatePattern } from "../../domains/templates/engine/types";

export const alertTemplates = sqliteTable(
  "alert_templates",
  {
    /** `tpl_` + hash of the sender domain and the pattern (learning the same shape twice is a no-op). */
    id: text("id").primaryKey(),
    name: text("name").notNull(),
    /** The institution name stored on the transactions it reads. */
    institution: text("institution").notNull(),
    /** Lowercased sender host; a subdomain of it matches too. */
    sender_domain: text("sender_domain").notNull(),
    /** JSON array of the subject's fixed words (all must be in a matching email's subject). */
    subject_words: jsonText("subject_words").notNull().$type<string[]>(),
    /** JSON TemplatePattern (src/domains/templates/engine/types.ts; read: templates/stored.ts). */
    pattern: jsonText("pattern").notNull().$type<TemplatePattern>(),
    transaction_type: text("transaction_type").notNull(),
    /** The value lines with slots and digits masked. */
    example: text("example").notNull(),
    source_failure_id: text("source_failure_id"),
    match_count: integer("match_count").notNull().default(0),
    last_matched_at: text("last_matched_at"),
    created_at: text("created_at").notNull(),
    updated_at: text("updated_at").notNull(),
  },
  (t) => [index("idx_alert_templates_domain").on(t.sender_domain)],
);

export type AlertTemplateRow = typeof alertTemplates.$inferSelect;
