/**
 * Replays a quarantined email through the deterministic half of the pipeline (detect, parse,
 * categorize, write) from the raw in R2, or from the stored details when the raw is gone.
 */
import { categorize } from "../../ingest/categorize";
import { type CommitResult, commitTransaction } from "../../ingest/commit";
import { dateFileName, displayDate, localParts } from "../../ingest/dates";
import { sha256Hex } from "../../ingest/hash";
import { detectInstitution, parseWithInstitution } from "../../ingest/institutions";
import { emptyEmail, type ParsedEmail, parseMime } from "../../ingest/mime";
import { buildDraft, type Envelope, makeEnvelope } from "../../ingest/pipeline";
import type { FailureStage, IngestDeps } from "../../ingest/types";
import { parseDetail, type FailureRow } from "./rules";
import type { ManualResolveRequest } from "./schemas";

function emailFromRow(row: FailureRow): ParsedEmail {
  const d = parseDetail(row);
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
export async function envelopeOf(deps: IngestDeps, row: FailureRow): Promise<Envelope> {
  const object = row.raw_key ? await deps.files.get(row.raw_key) : null;
  if (object) {
    const bytes = new Uint8Array(await object.arrayBuffer());
    return makeEnvelope(deps, await parseMime(bytes), await sha256Hex(bytes), row.raw_key ?? "");
  }
  const d = parseDetail(row);
  const sha = typeof d.raw_sha256 === "string" ? d.raw_sha256 : await sha256Hex(row.id);
  return makeEnvelope(deps, emailFromRow(row), sha, row.raw_key ?? "");
}

export type ReplayResult =
  | Exclude<CommitResult, { status: "invalid" }>
  | { status: "failed"; stage: FailureStage };

export async function replayDeterministic(deps: IngestDeps, row: FailureRow): Promise<ReplayResult> {
  const env = await envelopeOf(deps, row);
  const institution = detectInstitution(env.email.fromEmail, env.email.text);
  if (!institution) return { status: "failed", stage: "no_parser_match" };
  const fields = parseWithInstitution(institution, env.email.text);
  if (fields.amount === null) return { status: "failed", stage: "extraction_empty" };
  const draft = buildDraft(env, {
    institution: institution.name,
    amount: fields.amount,
    company: fields.company,
    name: fields.name,
    type: fields.transaction_type,
  });
  const result = await commitTransaction(deps, draft);
  if (result.status === "invalid") return { status: "failed", stage: "db_validation_failed" };
  return result;
}

/** A hand-entered transaction for a quarantined email (no notification: a person typed it). */
export async function commitManual(
  deps: IngestDeps,
  row: FailureRow,
  input: ManualResolveRequest,
): Promise<CommitResult> {
  const env = await envelopeOf(deps, row);
  const [year = "1970", month = "01", day = "01"] = input.date.split("-");
  const zone = localParts(new Date(`${input.date}T12:00:00Z`), deps.settings.timezone).zone;
  const local = { year, month, day, hour: "00", minute: "00", zone };
  const draft = buildDraft(
    { ...env, local },
    {
      institution: input.institution ?? row.institution ?? "Manual",
      amount: input.amount,
      company: input.company,
      name: null,
      type: input.transaction_type,
    },
  );
  draft.DateFileName = dateFileName(local, env.rawSha.slice(0, 12));
  draft.Date = displayDate(local);
  const category = input.category
    ? { category: input.category, audit: manualAudit(deps.clock().toISOString()) }
    : // Overrides only: a hand-entered row never goes to the model.
      await categorize(
        { db: deps.db, clock: deps.clock, ai: null, aiEnabled: false },
        { amount: input.amount, company: input.company, transactionType: input.transaction_type },
      );
  return commitTransaction(deps, draft, { category, notify: false });
}

function manualAudit(nowIso: string) {
  return {
    source: "manual",
    matched_rule: null,
    confidence: 1,
    tier: null,
    model: null,
    fallback_reason: null,
    reviewed_at: nowIso,
    previous_category: null,
    previous_source: null,
    schema_version: 1 as const,
  };
}
