/**
 * Alert intake beyond the parsers (issues 26 and 27): emails the relevance check ignored (kept 90
 * days, each can be sent to Needs review), addresses the owner vouched for, and the card-to-name
 * mapping SPEC's `Name` comes from.
 */
import { index, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";

export const ignoredEmails = sqliteTable(
  "ignored_emails",
  {
    /** `ign_` + hash of the raw bytes' hash (redelivery upserts). */
    id: text("id").primaryKey(),
    /** `ignored`, or `sent_to_review` once the owner said it was a bank alert. */
    status: text("status").notNull().default("ignored"),
    /** The gate's code (`not_a_transaction_alert`, `classifier_no`). */
    reason: text("reason").notNull(),
    /** The same in words. */
    reason_text: text("reason_text").notNull(),
    from_name: text("from_name"),
    from_email: text("from_email"),
    subject: text("subject"),
    email_date: text("email_date"),
    message_id: text("message_id"),
    forwarded_to: text("forwarded_to"),
    /** R2 key of the raw email (the pipeline stores it before anything else). */
    raw_key: text("raw_key"),
    raw_sha256: text("raw_sha256").notNull(),
    /** The quarantined row it became. */
    failure_id: text("failure_id"),
    received_at: text("received_at").notNull(),
    updated_at: text("updated_at").notNull(),
  },
  (t) => [index("idx_ignored_emails_received").on(t.received_at)],
);

export const senderTrust = sqliteTable(
  "sender_trust",
  {
    /** Lowercased email address. */
    address: text("address").notNull(),
    /** `alert_sender` or `forwarder`. */
    kind: text("kind").notNull(),
    /** How it became known (`ignored_email`, `confirmed_row`). */
    source: text("source").notNull(),
    created_at: text("created_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.address, t.kind] })],
);

export const cardNames = sqliteTable(
  "card_names",
  {
    institution: text("institution").notNull(),
    last_four: text("last_four").notNull(),
    name: text("name").notNull(),
    updated_at: text("updated_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.institution, t.last_four] })],
);

export type IgnoredEmailRow = typeof ignoredEmails.$inferSelect;
