/** Shapes shared by the ingest stages. */
import type { Cents } from "../lib/money";
import type { AiProvider } from "../ai/provider";
import type { CategoryAudit } from "../categorize/audit";
import type { Db } from "../db";
import type { AlertTemplateRow, transactions } from "../db/schema";
import type { Clock } from "../lib/clock";
import type { Notifier } from "../notify/types";
import type { UnreadFacts, UnreadKey } from "./unread";
import type { ServiceCtx } from "../lib/context";

export type { CategoryAudit } from "../categorize/audit";
export type { Notifier, NotifyMessage } from "../notify/types";

/** What the pipeline reads from configuration (loaded once per email by the door). */
export interface IngestSettings {
  timezone: string;
  userId: string;
  aiCategorizationEnabled: boolean;
  aiExtractionEnabled: boolean;
  /** Companies whose transactions never notify (case-insensitive equality). */
  blockedCompanies: string[];
  /** The journal's currency (ISO 4217); a row printed in another one is flagged. Default CAD. */
  currency?: string;
  /** The owner's own addresses that forward alerts (config `forwarding_addresses`). */
  forwardingAddresses?: string[];
  /** authserv-ids of the receiving server's Authentication-Results (config `receiving_authserv_ids`). */
  receivingAuthservIds?: string[];
  /** ARC sealers whose verdict is honoured (config `arc_trusted_sealers`; default none). */
  arcTrustedSealers?: string[];
  /** The envelope sender as the receiving side gave it (Email Routing's MAIL FROM), lowercased. */
  envelopeFrom?: string;
  /** Card last four digits → cardholder first name, per institution (SPEC's `Name`). */
  cardNames?: Record<string, Record<string, string>>;
  /**
   * Addresses the calling verb vouches for as alert senders in this run, its own write of the
   * trust following (an ignored email marked a bank alert): the gate takes them as trusted unread.
   */
  alertSenders?: string[];
  /**
   * Read with the settings for the one email they serve (Email Routing): the envelope recipient's
   * mapped UserId (null: not mapped) and the override resolver's version stamp; when the caller
   * knew the row's year up front (a typed date), every user's budget targets of that year.
   */
  prefetched?: {
    recipient: string;
    userId: string | null;
    resolverVersion: string | null;
    targets?: PrefetchedTargets;
    /** A sender host's learned templates (a resolve that will learn), read before the row is written. */
    templates?: { host: string; rows: AlertTemplateRow[] };
    /** An unread email's facts, read from its head's sender, Message-ID and hash (ingest/unread.ts). */
    unread?: { key: UnreadKey; facts: UnreadFacts };
  };
}

/** Budget targets documents of one year, per user (as stored), read before the row is written. */
export interface PrefetchedTargets {
  year: number;
  docs: { user_id: string; data: unknown }[];
}

/** Collaborators every door passes in (no module mocking in tests). */
export interface IngestDeps {
  db: Db;
  files: R2Bucket;
  clock: Clock;
  ai: AiProvider | null;
  notify: Notifier;
  settings: IngestSettings;
  /** Which door delivered the email (logged, stamped nowhere else). */
  source?: string;
  /**
   * The ledger of the verb that runs the pipeline (upload-eml): each outcome's entry rides in the
   * write that settles the email (a duplicate without a parse note: the door writes it).
   */
  ledger?: Pick<ServiceCtx, "journal" | "batch">;
}

export interface ExtractionAudit {
  method: "ai_fallback" | "learned_template" | "parser";
  /** The model, for `learned_template` the template's id, for `parser` the institution. */
  model: string;
  validated: true;
  extracted_at: string;
  schema_version: 1;
  /** ISO code of the currency printed beside the amount (null: a bare `$`, or none printed). */
  currency?: string | null;
  /** The mark as printed (`USD`, `$`, `Rs.`). */
  currency_printed?: string | null;
  /** Why a person should look at the row, in words. */
  notes?: string[];
  /** A hand-forwarded alert from an address not known yet (confirming the row trusts it). */
  forwarded_by?: string;
}

/**
 * The month-to-date snapshot stored with a row: money in cents, so marked (snapshots written
 * before are unmarked decimal maps; ingest/stored.ts readContext converts them).
 */
export interface TransactionContext {
  money: "cents";
  category_month_total: Cents;
  merchant_month_count: number;
  /** Null when the category has no monthly target (never missing). */
  category_budget_target: Cents | null;
  category_budget_pct: number | null;
}

type Insert = typeof transactions.$inferInsert;
type JsonColumn = "CategoryAudit" | "ExtractionAudit" | "TransactionContext";
/** Columns a new row never sets (defaults, or later edits). */
type LaterColumn = "Ignored" | "Comment" | "DeletedAt" | "CreatedAt";
/** The columns a row the commit path writes may leave null (the others are nullable only for old rows). */
type MaybeNull = "Company" | "Name" | "TransactionType" | "StatementSource";
type Columns = Required<Omit<Insert, JsonColumn | LaterColumn>>;

/**
 * A transaction as the commit path writes it: the schema's insert row (Amount in integer cents)
 * with the JSON maps as objects, serialized at the write.
 */
export type TransactionRecord = Pick<Columns, MaybeNull> & {
  [K in Exclude<keyof Columns, MaybeNull>]: NonNullable<Columns[K]>;
} & {
  CategoryAudit: CategoryAudit;
  ExtractionAudit: ExtractionAudit | null;
  TransactionContext: TransactionContext | null;
};

export type FailureStage =
  | "no_parser_match"
  | "extraction_empty"
  | "ai_extraction_failed"
  | "ai_validation_failed"
  | "db_validation_failed"
  /** The receiving server says the bank's own message failed DMARC, or both DKIM and SPF. */
  | "authentication_failed"
  /** Refused before parsing: too large, too deeply nested or too many parts (mime-limits.ts). */
  | "email_too_complex";

export type IngestOutcome =
  | { status: "created"; tx: TransactionRecord; recovered_by_ai: boolean }
  | { status: "duplicate"; tx: TransactionRecord }
  | { status: "quarantined"; id: string; failure_stage: FailureStage; institution: string | null }
  | { status: "ignored"; reason: string };
