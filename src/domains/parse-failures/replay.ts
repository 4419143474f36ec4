/**
 * Replays a quarantined email through the deterministic half of the pipeline (detect, parse,
 * categorize, write) from the raw in R2, or from the stored details when the raw is gone.
 */
import { type CommitOptions, type CommitResult, commitTransaction, typedCategory } from "../../ingest/commit";
import { dayParts } from "../../ingest/dates";
import { sha256Hex } from "../../ingest/hash";
import { parseStep } from "../../ingest/institutions";
import { emptyEmail, type ParsedEmail, parseMime } from "../../ingest/mime";
import { buildDraft, commitLearned, type Envelope, makeEnvelope } from "../../ingest/pipeline";
import { explainMiss } from "../templates/engine";
import type { FailureStage, IngestDeps } from "../../ingest/types";
import { toCents } from "../../lib/money";
import { readFailureDetail } from "../../ingest/quarantine";
import type { FailureRow } from "./rules";
import type { ManualResolveRequest } from "./schemas";

function emailFromRow(row: FailureRow): ParsedEmail {
  const d = readFailureDetail(row);
  return {
    ...emptyEmail(),
    fromName: row.from_name ?? "",
    fromEmail: row.from_email ?? "",
    toEmail: row.to_email ?? "",
    forwardedTo: row.forwarded_to ?? "",
    subject: row.subject ?? "",
    messageId: typeof d.message_id === "string" ? d.message_id : null,
    dateHeader: typeof d.date_header === "string" ? d.date_header : null,
    text: row.body ?? "",
  };
}

/** The envelope of a quarantined email: from its raw when R2 still has it. */
async function envelopeOf(deps: IngestDeps, row: FailureRow): Promise<Envelope> {
  const object = row.raw_key ? await deps.files.get(row.raw_key) : null;
  if (object) {
    const bytes = new Uint8Array(await object.arrayBuffer());
    return makeEnvelope(deps, await parseMime(bytes), await sha256Hex(bytes), row.raw_key ?? "");
  }
  const d = readFailureDetail(row);
  const sha = typeof d.raw_sha256 === "string" ? d.raw_sha256 : await sha256Hex(row.id);
  return makeEnvelope(deps, emailFromRow(row), sha, row.raw_key ?? "");
}

/** A quarantined email as an example to learn from: its sender, subject, text and sent day. */
export interface Example {
  failureId: string;
  fromEmail: string;
  subject: string;
  body: string;
  /** The day it was sent, YYYY-MM-DD in the configured zone. */
  sentIso: string;
}

export async function exampleOf(deps: IngestDeps, row: FailureRow): Promise<Example> {
  const { email, local: l } = await envelopeOf(deps, row);
  const sentIso = `${l.year}-${l.month}-${l.day}`;
  return { failureId: row.id, fromEmail: email.fromEmail, subject: email.subject, body: email.text, sentIso };
}

type ReplayResult =
  | Exclude<CommitResult, { status: "invalid" }>
  | { status: "failed"; stage: FailureStage; envelope: Envelope };

/** `opts`: the caller's writes of a created row and its entry, in the insert's own batch. */
export async function replayDeterministic(
  deps: IngestDeps,
  row: FailureRow,
  opts: Pick<CommitOptions, "journal" | "withRow"> = {},
): Promise<ReplayResult> {
  const env = await envelopeOf(deps, row);
  const { institution, fields, stage } = parseStep(env.email.fromEmail, env.email.text);
  if (!institution || fields.amount === null) {
    // A template learned since may read what the built-in parsers cannot.
    const learned = await commitLearned(deps, env, opts);
    if (learned?.status === "invalid")
      return { status: "failed", stage: "db_validation_failed", envelope: env };
    return learned ?? { status: "failed", stage: stage ?? "extraction_empty", envelope: env };
  }
  const draft = buildDraft(env, {
    institution: institution.name,
    amount: fields.amount,
    company: fields.company,
    name: fields.name,
    type: fields.transaction_type,
  });
  const result = await commitTransaction(deps, draft, opts);
  if (result.status === "invalid") return { status: "failed", stage: "db_validation_failed", envelope: env };
  return result;
}

/** Why the sender's learned templates did not read this email, or null. */
export async function missReason(deps: IngestDeps, env: Envelope): Promise<string | null> {
  return explainMiss(deps.db, env.email, env.local, deps.settings.prefetched?.templates);
}

/**
 * A hand-entered transaction for a quarantined email: the email's envelope, the typed values, the
 * one commit path (no notification: a person typed it). The typed date is stored at 00:00.
 * `journal`: the verb's entry, written with the row in its batch; `withRow`: writes of the created
 * row that ride in that batch too.
 */
export async function commitManual(
  deps: IngestDeps,
  row: FailureRow,
  input: ManualResolveRequest,
  opts: Pick<CommitOptions, "journal" | "withRow"> = {},
): Promise<CommitResult> {
  const env = await envelopeOf(deps, row);
  const day = dayParts(input.date, deps.settings.timezone);
  const local = input.time ? { ...day, hour: input.time.slice(0, 2), minute: input.time.slice(3, 5) } : day;
  const draft = buildDraft(
    { ...env, local },
    {
      institution: input.institution ?? row.institution ?? "Manual",
      amount: toCents(input.amount),
      company: input.company,
      name: null,
      type: input.transaction_type,
    },
  );
  return commitTransaction(deps, draft, { category: typedCategory(input.category), notify: false, ...opts });
}
