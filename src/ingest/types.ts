/** Shapes shared by the ingest stages. */
import type { AiProvider } from "../ai/provider";
import type { Env } from "../env";
import type { Clock } from "../lib/clock";

/** What the pipeline reads from configuration (loaded once per email by the door). */
export interface IngestSettings {
  timezone: string;
  userId: string;
  aiCategorizationEnabled: boolean;
  aiExtractionEnabled: boolean;
  /** Companies whose transactions never notify (case-insensitive equality). */
  blockedCompanies: string[];
}

export interface NotifyMessage {
  kind: "transaction" | "quarantine" | "summary";
  title: string;
  text: string;
}

export interface Notifier {
  readonly name: string;
  /** May throw; the pipeline catches and logs. */
  send(msg: NotifyMessage): Promise<void>;
}

/** Collaborators every door passes in (no module mocking in tests). */
export interface IngestDeps {
  env: Env;
  db: D1Database;
  files: R2Bucket;
  clock: Clock;
  ai: AiProvider | null;
  notify: Notifier;
  settings: IngestSettings;
  /** Which door delivered the email (logged, stamped nowhere else). */
  source?: string;
}

export interface CategoryAudit {
  source: string | null;
  matched_rule: string | null;
  confidence: number | null;
  tier: number | null;
  model: string | null;
  fallback_reason: string | null;
  reviewed_at: string | null;
  previous_category: string | null;
  previous_source: string | null;
  schema_version: 1;
}

export interface ExtractionAudit {
  method: "ai_fallback";
  model: string;
  validated: true;
  extracted_at: string;
  schema_version: 1;
}

export interface TransactionContext {
  category_month_total: number;
  merchant_month_count: number;
  category_budget_target?: number;
  category_budget_pct?: number;
}

/** A stored transaction row (SPEC.md's stored names). JSON maps are objects here. */
export interface TransactionRecord {
  ForwardedTo: string;
  DateFileName: string;
  TransactionHash: string;
  UserId: string;
  Institution: string;
  Amount: number;
  Company: string | null;
  TransactionType: string | null;
  Category: string;
  Name: string | null;
  Date: string;
  FileName: string;
  FromName: string;
  FromEmail: string;
  ToName: string;
  ToEmail: string;
  Subject: string;
  Body: string;
  CategoryAudit: CategoryAudit;
  ExtractionAudit: ExtractionAudit | null;
  TransactionContext: TransactionContext | null;
}

export type FailureStage =
  | "no_parser_match"
  | "extraction_empty"
  | "ai_extraction_failed"
  | "ai_validation_failed"
  | "db_validation_failed";

export type IngestOutcome =
  | { status: "created"; tx: TransactionRecord; recovered_by_ai: boolean }
  | { status: "duplicate"; tx: TransactionRecord }
  | { status: "quarantined"; id: string; failure_stage: FailureStage; institution: string | null }
  | { status: "ignored"; reason: string };
