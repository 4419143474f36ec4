/**
 * Learning a template from a resolved email (issue 18): the values a person typed, found in the
 * email's own text. The hand-entered transaction stands whether or not a template is made.
 */
import { institutionByDomain } from "../../ingest/institutions";
import { deriveTemplate, nameFromHost, saveTemplate, senderHost } from "../../ingest/templates";
import type { IngestDeps } from "../../ingest/types";
import { toCents } from "../../lib/money";
import { envelopeOf } from "./replay";
import type { FailureRow } from "./rules";
import type { ManualResolveRequest } from "./schemas";

export interface LearnOutcome {
  template_id: string | null;
  template_name: string | null;
  /** Why no template was made (null when one was, or none was asked for). */
  template_reason: string | null;
}

export const NOT_ASKED: LearnOutcome = { template_id: null, template_name: null, template_reason: null };

/** Learning is on by default for a sender no built-in parser owns. */
export function wantsLearning(row: FailureRow, input: ManualResolveRequest): boolean {
  return input.learn_template ?? institutionByDomain(row.from_email) === null;
}

export async function learnFromResolved(
  deps: IngestDeps,
  row: FailureRow,
  input: ManualResolveRequest,
): Promise<LearnOutcome> {
  const env = await envelopeOf(deps, row);
  const l = env.local;
  const derived = deriveTemplate({
    fromEmail: env.email.fromEmail,
    subject: env.email.subject,
    body: env.email.text,
    sentIso: `${l.year}-${l.month}-${l.day}`,
    amount: toCents(input.amount),
    merchant: input.company,
    date: input.date,
  });
  if (!derived.ok) return { ...NOT_ASKED, template_reason: derived.reason };
  const host = senderHost(env.email.fromEmail) ?? derived.template.senderDomain;
  const institution = input.institution ?? row.institution ?? nameFromHost(host);
  const type = input.transaction_type;
  const saved = await saveTemplate(deps.db, derived.template, {
    name: `${institution} ${type}`,
    institution,
    transactionType: type,
    sourceFailureId: row.id,
    nowIso: deps.clock().toISOString(),
  });
  return { template_id: saved.id, template_name: saved.name, template_reason: null };
}
