/**
 * Tax pack: per-transaction overrides of claim-line membership, and the personal
 * line mapping that replaces the packaged one (src/domains/tax/lines.json).
 */
import { index, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { jsonText } from "../json-column";
import type { TaxMappingDoc } from "../../domains/tax/mapping";

/** One override per transaction: `include` into `line_key` (a line key or `other`), or `exclude`. */
export const taxOverrides = sqliteTable(
  "tax_overrides",
  {
    tx_forwarded_to: text("tx_forwarded_to").notNull(),
    tx_date_file_name: text("tx_date_file_name").notNull(),
    /** `include` | `exclude`. */
    mode: text("mode").notNull(),
    /** Target line of an include; null for an exclude. */
    line_key: text("line_key"),
    created_at: text("created_at").notNull(),
    updated_at: text("updated_at").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.tx_forwarded_to, t.tx_date_file_name] }),
    index("idx_tax_overrides_month").on(t.tx_date_file_name),
  ],
);

/**
 * The personal mapping: one JSON document (same shape as lines.json); absent = packaged. Read
 * through tax/mapping.ts `parseMapping` (every problem named).
 */
export const taxMapping = sqliteTable("tax_mapping", {
  id: text("id").primaryKey(),
  data: jsonText("data").notNull().$type<TaxMappingDoc>(),
  updated_at: text("updated_at").notNull(),
});
