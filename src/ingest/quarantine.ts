/**
 * Parse-failure quarantine: the relevance gate, the deterministic `pf_` id (from the raw bytes),
 * the upsert, and the once-per-institution-per-24h notice. Nothing here throws (the gate never raises).
 */
import { eq, inArray, lt } from "drizzle-orm";
import type { AiProvider } from "../ai/provider";
import { asAiError } from "../ai/provider";
import { detectAlertTool } from "../ai/tools";
import { getDb } from "../db";
import { kvState, parseFailures } from "../db/schema";
import { log } from "../lib/log";
import { type Notifier, safeSend } from "../notify";
import { sha256Hex } from "./hash";
import type { ParsedEmail } from "./mime";
import type { FailureStage } from "./types";

// An amount as English alerts print it ($12.00, 12.00 CAD) or as French ones do (12,00 $, 1 234,56 $,
// 12,00 €): the decimal comma and the sign after the number, with a space or a no-break space.
const CURRENCY = new RegExp(
  [
    String.raw`[$€£]\s?\d[\d,]*(?:\.\d{2})?`,
    String.raw`\d[\d,]*\.\d{2}\s?(?:CAD|USD|EUR|GBP)\b`,
    String.raw`\d{1,3}(?:[ \u00a0\u202f.]\d{3})*,\d{2}\s?(?:[$€£]|CAD|USD|EUR|GBP\b)`,
  ].join("|"),
  "i",
);
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
  // The same alerts in French (Canadian banks send them in the customer's language).
  "achat",
  "retrait",
  "dépôt",
  "débité",
  "crédité",
  "paiement",
  "virement",
  "carte se terminant",
  "compte",
  "alerte",
  "autorisé",
  "montant",
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

/**
 * `pf_` + 24 hex of SHA-256 over the raw bytes' hash: redelivery of the same bytes upserts, while a
 * different email reusing a Message-ID gets its own row (and keeps its own raw).
 */
export async function quarantineId(rawSha256: string): Promise<string> {
  return `pf_${(await sha256Hex(`raw:${rawSha256}`)).slice(0, 24)}`;
}

/** The id rows quarantined before raw-hash ids carried when their email had a Message-ID. */
export async function messageIdQuarantineId(messageId: string): Promise<string> {
  return `pf_${(await sha256Hex(`mid:${messageId.trim().toLowerCase()}`)).slice(0, 24)}`;
}

/**
 * The id of this email's row. A row stored under the older Message-ID id for these same bytes
 * keeps that id, so redelivering an email quarantined before the change still upserts; any other
 * email gets the raw-hash id. Ids are opaque strings either way.
 */
export async function quarantineIdFor(
  d1: D1Database,
  messageId: string | null,
  rawSha256: string,
): Promise<string> {
  const id = await quarantineId(rawSha256);
  if (!messageId?.trim()) return id;
  const legacy = await messageIdQuarantineId(messageId);
  try {
    const row = await getDb(d1)
      .select({ detail: parseFailures.detail })
      .from(parseFailures)
      .where(eq(parseFailures.id, legacy))
      .get();
    const sameBytes = row?.detail ? (JSON.parse(row.detail) as { raw_sha256?: unknown }).raw_sha256 : null;
    return sameBytes === rawSha256 ? legacy : id;
  } catch (err) {
    log("warn", "quarantine.legacy_id_check_failed", { error: String(err) });
    return id;
  }
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
export async function recordFailure(d1: D1Database, row: FailureRow, nowIso: string): Promise<void> {
  const e = row.email;
  const fields = {
    failure_stage: row.stage,
    institution: row.institution,
    forwarded_to: e.forwardedTo || null,
    from_name: e.fromName || null,
    from_email: e.fromEmail || null,
    to_email: e.toEmail || null,
    subject: e.subject || null,
    body: e.text.slice(0, MAX_BODY),
    email_date: row.emailDate,
    raw_key: row.rawKey,
    detail: JSON.stringify(row.detail),
    updated_at: nowIso,
  };
  await getDb(d1)
    .insert(parseFailures)
    .values({ id: row.id, status: "quarantined", created_at: nowIso, ...fields })
    .onConflictDoUpdate({
      target: parseFailures.id,
      set: fields,
      setWhere: inArray(parseFailures.status, ["quarantined", "retried"]),
    });
}

const DAY_MS = 24 * 3600 * 1000;

/** Sends the quarantine notice when none went out for this institution in the last 24 hours. */
export async function noticeOncePerDay(
  d1: D1Database,
  notifier: Notifier,
  institution: string | null,
  stage: FailureStage,
  now: Date,
): Promise<boolean> {
  const key = `quarantine_notice:${(institution ?? "unknown").toLowerCase()}`;
  const nowIso = now.toISOString();
  const cutoff = new Date(now.getTime() - DAY_MS).toISOString();
  try {
    const res = await getDb(d1)
      .insert(kvState)
      .values({ key, value: nowIso, updated_at: nowIso })
      .onConflictDoUpdate({
        target: kvState.key,
        set: { value: nowIso, updated_at: nowIso },
        setWhere: lt(kvState.value, cutoff),
      });
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
