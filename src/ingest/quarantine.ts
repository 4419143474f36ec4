/**
 * Parse-failure quarantine: the relevance gate, the deterministic `pf_` id, the upsert, and the
 * once-per-institution-per-24h notice. Nothing here throws (the gate never raises).
 */
import type { AiProvider } from "../ai/provider";
import { asAiError } from "../ai/provider";
import { detectAlertTool } from "../ai/tools";
import { log } from "../lib/log";
import { sha256Hex } from "./hash";
import type { ParsedEmail } from "./mime";
import { safeSend } from "./notify";
import type { FailureStage, Notifier } from "./types";

const CURRENCY = /(?:[$€£]\s?\d[\d,]*(?:\.\d{2})?)|(?:\d[\d,]*\.\d{2}\s?(?:CAD|USD|EUR|GBP)\b)/i;
const ALERT_KEYWORDS = [
  "transaction",
  "purchase",
  "withdrawal",
  "withdrawn",
  "deposit",
  "debited",
  "credited",
  "charged",
  "payment",
  "pre-authorized",
  "preauthorized",
  "e-transfer",
  "interac",
  "card ending",
  "account",
  "alert",
  "spent",
  "authorized",
  "sent you",
  "transfer",
];

/** AI-off capture rule (pure): a currency amount plus at least two distinct alert keywords. */
export function looksLikeAlert(text: string, subject = ""): boolean {
  const hay = `${subject}\n${text}`.toLowerCase();
  if (!CURRENCY.test(hay)) return false;
  return ALERT_KEYWORDS.filter((k) => hay.includes(k)).length >= 2;
}

export interface Relevance {
  relevant: boolean;
  reason: string;
  /** The classifier's answer when it ran: true, false, or null on error. */
  classifier: boolean | null;
}

/**
 * Relevant when an institution was detected (sender domain or body name), when the AI-off rule
 * fires, or when the alert classifier says yes; classifier errors count as yes.
 */
export async function relevanceGate(
  email: ParsedEmail,
  institution: string | null,
  ai: AiProvider | null,
): Promise<Relevance> {
  try {
    if (institution) return { relevant: true, reason: "institution_detected", classifier: null };
    if (looksLikeAlert(email.text, email.subject))
      return { relevant: true, reason: "alert_keywords", classifier: null };
    if (!ai) return { relevant: false, reason: "not_a_transaction_alert", classifier: null };
    try {
      const args = await ai.callTool({
        system: "You classify emails. Answer whether this email is a bank or card transaction alert.",
        user: `From: ${email.fromEmail}\nSubject: ${email.subject}\n\n${email.text.slice(0, 4000)}`,
        tool: detectAlertTool,
        timeoutMs: 10_000,
      });
      const yes = args.is_transaction_alert === true;
      return { relevant: yes, reason: yes ? "classifier_yes" : "classifier_no", classifier: yes };
    } catch (err) {
      log("warn", "quarantine.classifier_failed", { error: asAiError(err).message });
      return { relevant: true, reason: "classifier_error", classifier: null };
    }
  } catch (err) {
    log("warn", "quarantine.gate_failed", { error: String(err) });
    return { relevant: true, reason: "gate_error", classifier: null };
  }
}

/** `pf_` + 24 hex of SHA-256 over the Message-ID, or over the raw bytes' hash without one. */
export async function quarantineId(messageId: string | null, rawSha256: string): Promise<string> {
  const basis = messageId?.trim() ? `mid:${messageId.trim().toLowerCase()}` : `raw:${rawSha256}`;
  return `pf_${(await sha256Hex(basis)).slice(0, 24)}`;
}

export interface FailureRow {
  id: string;
  stage: FailureStage;
  institution: string | null;
  email: ParsedEmail;
  rawKey: string | null;
  emailDate: string | null;
  detail: Record<string, unknown>;
}

const MAX_BODY = 100_000;

/** Upsert: redelivery refreshes the stage and details but keeps created_at and a dismissed status. */
export async function recordFailure(db: D1Database, row: FailureRow, nowIso: string): Promise<void> {
  const e = row.email;
  await db
    .prepare(
      `INSERT INTO parse_failures (id, status, failure_stage, institution, forwarded_to, from_name, from_email,
         to_email, subject, body, email_date, raw_key, detail, created_at, updated_at)
       VALUES (?1, 'quarantined', ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?13)
       ON CONFLICT (id) DO UPDATE SET failure_stage = ?2, institution = ?3, forwarded_to = ?4, from_name = ?5,
         from_email = ?6, to_email = ?7, subject = ?8, body = ?9, email_date = ?10, raw_key = ?11, detail = ?12,
         updated_at = ?13
       WHERE parse_failures.status IN ('quarantined', 'retried')`,
    )
    .bind(
      row.id,
      row.stage,
      row.institution,
      e.forwardedTo || null,
      e.fromName || null,
      e.fromEmail || null,
      e.toEmail || null,
      e.subject || null,
      e.text.slice(0, MAX_BODY),
      row.emailDate,
      row.rawKey,
      JSON.stringify(row.detail),
      nowIso,
    )
    .run();
}

const DAY_MS = 24 * 3600 * 1000;

/** Sends the quarantine notice when none went out for this institution in the last 24 hours. */
export async function noticeOncePerDay(
  db: D1Database,
  notifier: Notifier,
  institution: string | null,
  stage: FailureStage,
  now: Date,
): Promise<boolean> {
  const key = `quarantine_notice:${(institution ?? "unknown").toLowerCase()}`;
  const nowIso = now.toISOString();
  const cutoff = new Date(now.getTime() - DAY_MS).toISOString();
  try {
    const res = await db
      .prepare(
        `INSERT INTO kv_state (key, value, updated_at) VALUES (?1, ?2, ?2)
         ON CONFLICT (key) DO UPDATE SET value = ?2, updated_at = ?2 WHERE kv_state.value < ?3`,
      )
      .bind(key, nowIso, cutoff)
      .run();
    if ((res.meta?.changes ?? 0) === 0) return false;
  } catch (err) {
    log("warn", "quarantine.notice_state_failed", { error: String(err) });
    return false;
  }
  return safeSend(notifier, {
    kind: "quarantine",
    title: `Unreadable ${institution ?? "bank"} alert quarantined`,
    text: `An email from ${institution ?? "an unknown sender"} could not be read (${stage}). Review it under Parse failures.`,
  });
}
