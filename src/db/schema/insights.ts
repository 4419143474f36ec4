/**
 * Saved insights briefings (one row per generation; the page lists them per month). `validation`
 * is the figure-check sidecar (BriefingValidation as JSON), null when the check did not run.
 */
import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { jsonText } from "../json-column";
import type { BriefingValidation } from "../../domains/insights/figures";

export const insightBriefings = sqliteTable(
  "insight_briefings",
  {
    /** `ins_` + 16 hex. */
    id: text("id").primaryKey(),
    user_id: text("user_id").notNull(),
    /** YYYY-MM the briefing is about. */
    month: text("month").notNull(),
    generated_at: text("generated_at").notNull(),
    /** The markdown as the model wrote it. */
    content: text("content").notNull(),
    /** JSON BriefingValidation, or null (read: insights/service.ts readValidation). */
    validation: jsonText("validation").$type<BriefingValidation>(),
    provider: text("provider"),
    model: text("model"),
  },
  (t) => [index("idx_insight_briefings_month").on(t.user_id, t.month, t.generated_at)],
);

/**
 * The former `vendor` account connection (OAuth device authorization grant). Unused since the
 * sign-in was removed (migration 0023 emptied it); kept so older databases and backups line up.
 * Held tokens: never exported, never in a response or a log.
 */
export const vendorConnections = sqliteTable("vendor_connections", {
  user_id: text("user_id").primaryKey(),
  /** pending | connected | error */
  state: text("state").notNull(),
  device_code: text("device_code"),
  user_code: text("user_code"),
  verification_url: text("verification_url"),
  interval_s: integer("interval_s").notNull().default(5),
  expires_at: text("expires_at"),
  next_poll_at: text("next_poll_at"),
  access_token: text("access_token"),
  refresh_token: text("refresh_token"),
  token_expires_at: text("token_expires_at"),
  email: text("email"),
  error: text("error"),
  updated_at: text("updated_at").notNull(),
});
