/**
 * The email pipeline, SPEC.md's eight steps top to bottom. Every door calls it through
 * `ingestEmail`; it ends as created, duplicate, quarantined or ignored. The raw bytes are stored
 * in R2 before anything is parsed. Only a storage outage throws (the door decides to retry).
 */
import type { Statement } from "../db/lists";
import type { JournalEntry } from "../lib/context";
import { log } from "../lib/log";
import { type Cents, fromCents } from "../lib/money";
import { encodeTxId } from "../lib/txid";
import { nameForCard } from "../domains/card-names/names";
import { directedType, parseStep } from "./institutions";
import { authenticationFailed, checkReading, shouldCheckAuthentication } from "./checks";
import { type CommitOptions, type CommitResult, commitTransaction, type Draft } from "./commit";
import { dateFileName, displayDate, type LocalParts, localParts, parseEmailDate } from "./dates";
import { extractWithAi } from "./extraction";
import { unwrapForward } from "./forwarded";
import { sha256Hex } from "./hash";
import { type ParsedEmail, parseMime } from "./mime";
import { receivedVerdicts, senderVerified } from "./received";
import { recordIgnored } from "../domains/ignored-emails/ignored";
import { type FailureRow, ignoredInWords, MAX_BODY, relevanceGate } from "./quarantine";
import { headerDate, rawKey, storeRaw, toBytes } from "./raw";
import type { ExtractionAudit, FailureStage, IngestDeps, IngestOutcome, TransactionRecord } from "./types";
import { readUnread, type UnreadFacts, writeQuarantine } from "./unread";
import { resolveUserId } from "./users";
import {
  CONFIRM_FIRST,
  learnedAudit,
  learnedFields,
  noteRead,
  parsedNote,
  readingLocal,
  readLearned,
} from "../domains/templates/engine";

export interface Envelope {
  email: ParsedEmail;
  rawSha: string;
  fileName: string;
  local: LocalParts;
  userId: string;
  forwardedTo: string;
}

export async function runPipeline(raw: Uint8Array | string, deps: IngestDeps): Promise<IngestOutcome> {
  const bytes = toBytes(raw);
  const rawSha = await sha256Hex(bytes);
  // 0. Keep the raw first.
  const keyDate = localParts(headerDate(bytes) ?? deps.clock(), deps.settings.timezone);
  const fileName = rawKey(keyDate.year, keyDate.month, rawSha);
  await storeRaw(deps.files, fileName, bytes, deps.source ?? "unknown");

  // 1. Parse the message; map the recipient to a UserId.
  const email = await parseMime(bytes);
  const envelope = await makeEnvelope(deps, email, rawSha, fileName);
  // Refused before parsing (a MIME bomb): kept unread with the reason, never lost.
  if (email.refused)
    return quarantine(deps, envelope, {
      institution: null,
      stage: "email_too_complex",
      detail: { error: email.refused },
    });

  // 2. Detect the institution (sender domain, then body names in a fixed order).
  // 3. Parse the fields; a parser that recognizes nothing leaves the details empty.
  const { institution, fields, stage } = parseStep(envelope.email.fromEmail, envelope.email.text);

  // The receiving server says the bank's own message failed authentication: never read it.
  if (shouldCheckAuthentication(deps) && authenticationFailed(envelope.email)) {
    return rescueOrQuarantine(deps, envelope, {
      institution: institution?.name ?? null,
      parseStage: "authentication_failed",
    });
  }

  // 4-7. Categorize, write with dedup, context, notify.
  const seen: { templates: number; reason?: string } = { templates: 0 };
  const read =
    institution && fields.amount !== null
      ? await commitReading(
          deps,
          envelope,
          buildDraft(envelope, {
            institution: institution.name,
            amount: fields.amount,
            company: fields.company,
            // SPEC's `Name` when the alert prints none: the cardholder of the card's last four digits.
            name: fields.name ?? nameForCard(deps.settings.cardNames, institution.name, envelope.email.text),
            type: fields.transaction_type,
          }),
          { audit: readAudit("parser", institution.name, deps.clock().toISOString()) },
        )
      : // 3b. No built-in reading: a template learned from a hand-resolved email of this sender.
        await commitLearned(deps, envelope, {}, seen);
  if (read?.status === "invalid") {
    return quarantine(deps, envelope, {
      institution: institution?.name ?? null,
      stage: "db_validation_failed",
      detail: { error: read.reason },
    });
  }
  if (read) return asOutcome(read, false);

  // 8. No usable transaction: relevance gate, AI rescue, quarantine.
  return rescueOrQuarantine(deps, envelope, {
    institution: institution?.name ?? null,
    parseStage: stage ?? "extraction_empty",
    taught: seen.templates > 0,
    missed: seen.reason,
  });
}

/**
 * The per-email facts every later step needs (date in the configured zone, recipient, user).
 * A hand-forwarded alert speaks for itself: sender, subject, date and body come from the forwarded
 * block, while the recipient (ForwardedTo, UserId) stays the outer envelope's.
 */
export async function makeEnvelope(
  deps: IngestDeps,
  parsed: ParsedEmail,
  rawSha: string,
  fileName: string,
): Promise<Envelope> {
  // Only what the receiving side added is believed (received.ts): its own verdicts, and whether
  // it vouches for the sender a hand forward names as its forwarder.
  const unwrapped = unwrapForward(parsed, deps.settings.timezone);
  const email: ParsedEmail = {
    ...unwrapped,
    authResults: receivedVerdicts(parsed, deps.settings),
    ...(unwrapped.forwardedBy
      ? { forwardedBy: { ...unwrapped.forwardedBy, verified: senderVerified(parsed, deps.settings) } }
      : {}),
  };
  const local = localParts(parseEmailDate(email.dateHeader) ?? deps.clock(), deps.settings.timezone);
  const forwardedTo = email.forwardedTo || email.toEmail || "unknown";
  // The envelope's recipient was looked up with the settings (Email Routing): no second read.
  const pre = deps.settings.prefetched;
  const userId =
    pre && pre.recipient.toLowerCase() === forwardedTo.toLowerCase()
      ? (pre.userId ?? deps.settings.userId)
      : await resolveUserId(deps.db, forwardedTo, deps.settings.userId);
  return { email, rawSha, fileName, local, userId, forwardedTo };
}

/**
 * Commits the one learned-template reading of this email (null when no template reads it). A new
 * template's first reads go on the attention queue so a person can confirm them.
 */
export async function commitLearned(
  deps: IngestDeps,
  envelope: Envelope,
  opts: Pick<CommitOptions, "journal" | "withRow"> = {},
  seen?: { templates: number; reason?: string },
): Promise<CommitResult | null> {
  const reading = await readLearned(
    deps.db,
    envelope.email,
    envelope.local,
    deps.settings.prefetched?.templates,
    seen,
  );
  if (!reading) return null;
  const local = readingLocal(reading.values, envelope.local, deps.settings.timezone);
  const nowIso = deps.clock().toISOString();
  const confirm = reading.template.match_count < CONFIRM_FIRST;
  const result = await commitReading(
    deps,
    envelope,
    buildDraft({ ...envelope, local }, learnedFields(reading)),
    {
      audit: learnedAudit(reading.template, nowIso),
      attention: (flag) => flag ?? (confirm ? "learned_template" : null),
      opts,
    },
  );
  if (result.status === "created") await noteRead(deps.db, reading.template.id, nowIso);
  return result;
}

const readAudit = (method: ExtractionAudit["method"], model: string, nowIso: string): ExtractionAudit => ({
  method,
  model,
  validated: true,
  extracted_at: nowIso,
  schema_version: 1,
});

/**
 * Commits one reading of the email (a parser's, a learned template's, the model's): the checks
 * join its audit and may flag it (`attention` picks the reason from theirs), the verb's entry
 * rides with the row; a parser's or template's reading leads the insert's batch with the sender's
 * parse note (a created row and a duplicate alike), and a duplicate's entry rides with that note.
 */
async function commitReading(
  deps: IngestDeps,
  envelope: Envelope,
  draft: Draft,
  {
    audit,
    attention = (flag) => flag,
    opts = {},
  }: {
    audit: ExtractionAudit;
    attention?: (flag: string | null) => string | null;
    opts?: Pick<CommitOptions, "journal" | "withRow">;
  },
): Promise<CommitResult> {
  const checks = await checkReading(deps, envelope.email, draft.Amount);
  const reason = attention(checks.attention);
  const note =
    audit.method === "ai_fallback"
      ? null
      : parsedNote(deps.db, envelope.email.fromEmail, draft.Institution, audit.extracted_at);
  const result = await commitTransaction(
    deps,
    { ...draft, ExtractionAudit: { ...audit, ...checks.audit } },
    {
      ...(reason ? { attentionReason: reason } : {}),
      followUp: note ? [note] : [],
      ...(deps.ledger ? { journal: { ctx: deps.ledger, entry: (tx) => rowEntry("created", tx) } } : {}),
      ...opts,
    },
  );
  if (result.status !== "duplicate" || !deps.ledger) return result;
  const entry = rowEntry("duplicate", result.tx);
  if (!note) deps.ledger.journal(entry);
  else
    await writeWithEntry(deps, entry, note).catch((err) =>
      log("warn", "drift.note_parsed_failed", { error: String(err) }),
    );
  return result;
}

/** A created or duplicate row's entry in the verb's ledger: the row's id and what became of it. */
const rowEntry = (status: "created" | "duplicate", tx: TransactionRecord): JournalEntry => ({
  resourceId: encodeTxId(tx.ForwardedTo, tx.DateFileName),
  summary: `${status}: ${tx.Company ?? "(no company)"} ${fromCents(tx.Amount)}`,
});

/**
 * Runs `stmt` with the entry in one batch (without a ledger: alone). When the write fails the entry
 * is queued again under its id, so a caller that goes on (fail-open) still gets it written by the
 * door; a caller that fails drops it with the request.
 */
async function writeWithEntry(deps: IngestDeps, entry: JournalEntry, stmt: Statement) {
  if (!deps.ledger) return deps.db.batch([stmt]);
  const id = deps.ledger.journal(entry);
  try {
    return await deps.ledger.batch([stmt]);
  } catch (err) {
    deps.ledger.journal({ ...entry, id });
    throw err;
  }
}

async function rescueOrQuarantine(
  deps: IngestDeps,
  envelope: Envelope,
  {
    institution,
    parseStage,
    taught = false,
    missed,
  }: {
    institution: string | null;
    parseStage: FailureStage;
    /** The sender has learned templates: the person resolved an alert of it before. */
    taught?: boolean;
    /** Why the sender's templates did not read it, in words (Needs review shows it). */
    missed?: string;
  },
): Promise<IngestOutcome> {
  const authFailed = parseStage === "authentication_failed";
  // SPEC: the AI fallback runs when a client exists and ai_categorization_enabled is true, and the
  // user consented to rescuing unreadable emails with AI (ai_extraction_enabled). The classifier
  // reads the whole body, so it shares that consent. An email that failed authentication is never
  // handed to the model.
  const { aiCategorizationEnabled, aiExtractionEnabled, alertSenders } = deps.settings;
  const ai = !authFailed && aiCategorizationEnabled && aiExtractionEnabled ? deps.ai : null;
  const facts = await unreadFacts(deps, envelope);
  const from = envelope.email.fromEmail.toLowerCase();
  const known = authFailed || taught || Boolean(from && alertSenders?.includes(from)) || facts.trusted;
  const gate = await relevanceGate(envelope.email, institution, ai, known);
  if (!gate.relevant) {
    await listIgnored(deps, envelope, gate.reason);
    return { status: "ignored", reason: gate.reason };
  }
  const detail: Record<string, unknown> = {
    relevance: gate.reason,
    alert_classifier_result: gate.classifier,
  };
  let stage: FailureStage = parseStage;
  if (authFailed)
    detail.error = "The receiving server reports that the bank's own message failed authentication";
  else if (missed) detail.error = missed;
  if (ai) {
    const ex = await extractWithAi(ai, envelope.email);
    if (ex.ok) {
      const draft = buildDraft(envelope, {
        institution: "Other",
        amount: ex.value.amount_cents,
        company: ex.value.company,
        name: null,
        type: ex.value.transaction_type,
      });
      const result = await commitReading(deps, envelope, draft, {
        audit: readAudit("ai_fallback", ai.model, deps.clock().toISOString()),
        attention: () => "ai_extraction",
      });
      if (result.status !== "invalid") return asOutcome(result, true);
      stage = "db_validation_failed";
      detail.error = result.reason;
    } else {
      stage = ex.stage;
      detail.error = ex.reason;
    }
  }
  return quarantine(deps, envelope, { institution, stage, detail, facts });
}

/** The ignored-email list (90 days): nothing the gate lets go is lost without a trace. */
async function listIgnored(deps: IngestDeps, envelope: Envelope, reason: string) {
  const e = envelope.email;
  await recordIgnored(
    deps.db,
    {
      rawSha256: envelope.rawSha,
      rawKey: envelope.fileName,
      reason,
      reasonText: ignoredInWords(reason, e.text, e.subject),
      fromName: e.fromName,
      fromEmail: e.fromEmail,
      subject: e.subject,
      emailDate: displayDate(envelope.local),
      messageId: e.messageId,
      forwardedTo: envelope.forwardedTo,
    },
    deps.clock().toISOString(),
    (stmt, id) => writeWithEntry(deps, { resourceId: id, summary: `ignored: ${reason}` }, stmt),
  );
}

/** Why an email is quarantined: the institution it was read as, the stage that failed, the details. */
interface Quarantined {
  institution: string | null;
  stage: FailureStage;
  detail: Record<string, unknown>;
  facts?: UnreadFacts;
}

/** An unread email's reads in one batch (or as the settings batch read them from its head). */
const unreadFacts = (deps: IngestDeps, envelope: Envelope) =>
  readUnread(deps, {
    fromEmail: envelope.email.fromEmail,
    messageId: envelope.email.messageId,
    rawSha256: envelope.rawSha,
  });

async function quarantine(
  deps: IngestDeps,
  envelope: Envelope,
  { institution, stage, detail, facts }: Quarantined,
): Promise<IngestOutcome> {
  const read = facts ?? (await unreadFacts(deps, envelope));
  const id = read.quarantineId;
  const row: FailureRow = {
    id,
    stage,
    institution,
    email: { ...envelope.email, forwardedTo: envelope.forwardedTo },
    rawKey: envelope.fileName,
    emailDate: displayDate(envelope.local),
    detail: {
      ...detail,
      message_id: envelope.email.messageId,
      date_header: envelope.email.dateHeader,
      ...(envelope.email.forwardedBy ? { forwarded_by: envelope.email.forwardedBy } : {}),
      raw_sha256: envelope.rawSha,
      user_id: envelope.userId,
    },
  };
  await writeQuarantine(deps, row, read, deps.clock());
  return { status: "quarantined", id, failure_stage: stage, institution };
}

export interface DraftFields {
  institution: string;
  amount: Cents;
  company: string | null;
  name: string | null;
  type: string | null;
}

export function buildDraft(envelope: Envelope, f: DraftFields): Draft {
  const e = envelope.email;
  return {
    ForwardedTo: envelope.forwardedTo,
    DateFileName: dateFileName(envelope.local, envelope.rawSha.slice(0, 12)),
    UserId: envelope.userId,
    Institution: f.institution,
    Amount: f.amount,
    // Names are cleaned by the commit (cleanName).
    Company: f.company,
    // The direction of money that can go both ways, from the alert's own words.
    TransactionType: directedType(f.type, e.text),
    Name: f.name,
    Date: displayDate(envelope.local),
    FileName: envelope.fileName,
    FromName: e.fromName,
    FromEmail: e.fromEmail,
    ToName: e.toName,
    ToEmail: e.toEmail,
    Subject: e.subject,
    Body: e.text.slice(0, MAX_BODY),
    ExtractionAudit: null,
  };
}

function asOutcome(result: Exclude<CommitResult, { status: "invalid" }>, recovered: boolean): IngestOutcome {
  return result.status === "created"
    ? { status: "created", tx: result.tx, recovered_by_ai: recovered }
    : { status: "duplicate", tx: result.tx };
}
