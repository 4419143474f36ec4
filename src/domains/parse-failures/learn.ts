/**
 * Learning a template from a resolved email (issue 18): the values a person typed, found in the
 * email's own text. The hand-entered transaction stands whether or not a template is made.
 */
import type { AlertTemplateRow } from "../../db/schema";
import { institutionByDomain } from "../../ingest/institutions";
import { deriveTemplate, nameFromHost, saveTemplate, senderHost } from "../../ingest/templates";
import type { IngestDeps } from "../../ingest/types";
import { toCents } from "../../lib/money";
import { mergeIntoExisting } from "./learn-merge";
import { envelopeOf } from "./replay";
import type { FailureRow } from "./rules";
import type { ManualResolveRequest } from "./schemas";

export interface LearnOutcome {
  template_id: string | null;
  template_name: string | null;
  /** Why no template was made (null when one was, or none was asked for). */
  template_reason: string | null;
  /** The sender's earlier template: merged with this example, or why it was not. */
  template_note: string | null;
  /** Whole-row images of a merged template (for the activity ledger). */
  merged?: { before: AlertTemplateRow; after: AlertTemplateRow };
}

export const NOT_ASKED: LearnOutcome = {
  template_id: null,
  template_name: null,
  template_reason: null,
  template_note: null,
};

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
  const sentIso = `${l.year}-${l.month}-${l.day}`;
  const learnInput = {
    fromEmail: env.email.fromEmail,
    subject: env.email.subject,
    body: env.email.text,
    sentIso,
    amount: toCents(input.amount),
    merchant: input.company,
    date: input.date,
    varying: input.varying ?? [],
  };
  const derived = deriveTemplate(learnInput);
  if (!derived.ok) return { ...NOT_ASKED, template_reason: derived.reason };
  derived.template.pattern.sources = [row.id];
  const host = senderHost(env.email.fromEmail) ?? derived.template.senderDomain;
  const institution = input.institution ?? row.institution ?? nameFromHost(host);
  const type = input.transaction_type;
  const example = {
    failureId: row.id,
    fromEmail: env.email.fromEmail,
    subject: env.email.subject,
    body: env.email.text,
    sentIso,
  };
  const blocks = () => {
    const d = deriveTemplate({ ...learnInput, blocks: true });
    return d.ok ? { ...d.template, pattern: { ...d.template.pattern, sources: [row.id] } } : null;
  };
  const merge = await mergeIntoExisting(deps, host, type, derived.template, example, blocks);
  if (merge.ok) {
    return {
      template_id: merge.after.id,
      template_name: merge.after.name,
      template_reason: null,
      template_note: `merged into "${merge.after.name}": one template now reads both emails`,
      merged: merge,
    };
  }
  const saved = await saveTemplate(deps.db, derived.template, {
    name: `${institution} ${type}`,
    institution,
    transactionType: type,
    sourceFailureId: row.id,
    nowIso: deps.clock().toISOString(),
  });
  return {
    template_id: saved.id,
    template_name: saved.name,
    template_reason: null,
    template_note: merge.reason
      ? `kept as a second template of this bank, not merged: ${merge.reason}`
      : null,
  };
}
