/** The blocked-company list: transactions from these companies raise no notification (SPEC step 7). */
import { sqliteTable, text } from "drizzle-orm/sqlite-core";

export const blockedCompanies = sqliteTable("blocked_companies", {
  /** The name lower-cased and trimmed: one entry per company, whatever its case. */
  key: text("key").primaryKey(),
  /** The name as the person typed it. */
  company: text("company").notNull(),
  created_at: text("created_at").notNull(),
});
