/**
 * The pipeline's use of learned templates: after the built-in parsers read nothing, the templates
 * of the sender's domain (and subject words) are tried; exactly one reading, or none.
 */
import type { Db } from "../../../db";
import type { AlertTemplateRow } from "../../../db/schema";
import { log } from "../../../lib/log";
import { formatCents } from "../../../lib/money";
import { dayParts, type LocalParts } from "../../../ingest/dates";
import type { ParsedEmail } from "../../../ingest/mime";
import type { ExtractionAudit } from "../../../ingest/types";
import { type MatchResult, readWithPattern } from "./match";
import { patternOf, templatesForHost, wordsOf } from "./store";
import { senderHost, subjectWords } from "./text";
import type { Extracted } from "./types";

/** Rows read by a new template land on the attention queue until it has read this many. */
export const CONFIRM_FIRST = 3;

export interface LearnedReading {
  template: AlertTemplateRow;
  values: Extracted;
}

const isoOf = (p: LocalParts) => `${p.year}-${p.month}-${p.day}`;

/** A sender's templates read with the settings (`IngestSettings.prefetched.templates`). */
export type KnownTemplates = { host: string; rows: AlertTemplateRow[] } | undefined;

/** The host's templates: those read up front when they are this host's, else read now. */
const templatesOf = (db: Db, host: string, known: KnownTemplates) =>
  known?.host === host ? Promise.resolve(known.rows) : templatesForHost(db, host);

type Email = Pick<ParsedEmail, "fromEmail" | "subject" | "text">;

/** One template's reading of the email, or why it read nothing; null when its pattern is unreadable. */
function readOne(row: AlertTemplateRow, email: Email, local: LocalParts): MatchResult | null {
  const pattern = patternOf(row);
  if (!pattern) return null;
  const words = new Set(subjectWords(email.subject ?? ""));
  const lacking = wordsOf(row).filter((w) => !words.has(w));
  if (lacking.length)
    return { ok: false, reason: `the subject lacks the words ${lacking.map((w) => `"${w}"`).join(", ")}` };
  return readWithPattern(pattern, email.text, isoOf(local));
}

const missed = (row: AlertTemplateRow, why: string) =>
  `the learned template "${row.name}" did not read it: ${why}`;

/** The one template reading of this email, or null (none matched, or several read it differently). */
export async function readLearned(
  db: Db,
  email: Email,
  local: LocalParts,
  known?: KnownTemplates,
  /**
   * Told how many templates the sender has (a sender taught once is an alert sender) and, when
   * none reads the email, why in words (the Needs review row's reason).
   */
  seen?: { templates: number; reason?: string },
): Promise<LearnedReading | null> {
  const host = senderHost(email.fromEmail);
  if (!host) return null;
  let rows: AlertTemplateRow[];
  try {
    rows = await templatesOf(db, host, known);
  } catch (err) {
    log("warn", "templates.load_failed", { error: String(err) });
    return null;
  }
  if (seen) seen.templates = rows.length;
  const hits: LearnedReading[] = [];
  const misses: string[] = [];
  for (const row of rows) {
    const r = readOne(row, email, local);
    if (r?.ok) hits.push({ template: row, values: r.values });
    else if (r) misses.push(missed(row, r.reason));
  }
  const first = hits[0];
  if (!first) {
    if (seen && misses.length) seen.reason = misses.slice(0, 3).join("; ");
    return null;
  }
  const same = (h: LearnedReading) =>
    h.values.amount === first.values.amount &&
    h.values.merchant === first.values.merchant &&
    h.values.date === first.values.date &&
    h.template.transaction_type === first.template.transaction_type;
  if (hits.every(same)) return first;
  // Never a wrong value rather than none: two readings that disagree go to Needs review, said why.
  if (seen) {
    const other = hits.find((h) => !same(h)) ?? first;
    const words = (h: LearnedReading) =>
      `"${h.template.name}" read ${h.values.merchant} ${formatCents(h.values.amount)} on ${h.values.date ?? "the sent day"}`;
    seen.reason = `two learned templates read it differently: ${words(first)}, ${words(other)}`;
  }
  return null;
}

/**
 * Why no learned template of this sender read the email, in words (null when the sender has none):
 * the first template's missing subject words, or the anchor that did not match.
 */
export async function explainMiss(
  db: Db,
  email: Email,
  local: LocalParts,
  known?: KnownTemplates,
): Promise<string | null> {
  const host = senderHost(email.fromEmail);
  const rows = host ? await templatesOf(db, host, known).catch(() => []) : [];
  const reasons = rows.map((row) => {
    const r = readOne(row, email, local);
    return missed(row, !r ? "it is unreadable" : r.ok ? "another template read it differently" : r.reason);
  });
  return reasons.length ? reasons.join("; ") : null;
}

/**
 * When the transaction happened: the printed date (and time, when printed) in the configured zone;
 * a printed date without a time keeps the sent time when it is the sent day, else 00:00.
 */
export function readingLocal(v: Extracted, sent: LocalParts, timeZone: string): LocalParts {
  if (!v.date) return sent;
  const day = dayParts(v.date, timeZone);
  if (v.time) return { ...day, hour: v.time.slice(0, 2), minute: v.time.slice(3, 5) };
  return v.date === isoOf(sent) ? sent : day;
}

export function learnedAudit(template: AlertTemplateRow, nowIso: string): ExtractionAudit {
  return {
    method: "learned_template",
    model: template.id,
    validated: true,
    extracted_at: nowIso,
    schema_version: 1,
  };
}

export const learnedFields = (r: LearnedReading) => ({
  institution: r.template.institution,
  amount: r.values.amount,
  company: r.values.merchant,
  name: null,
  type: r.template.transaction_type,
});
