/**
 * Learning a template from a resolved email: the values a person typed, found in the
 * email's own text. The hand-entered transaction stands whether or not a template is made.
 */
import type { AlertTemplateRow } from "../../db/schema";
import { institutionByDomain } from "../../ingest/institutions";
import {
  type Derived,
  deriveTemplate,
  nameFromHost,
  saveTemplate,
  senderHost,
  templateId,
} from "../templates/engine";
import {
  getTemplateRow,
  insertTemplateAfterChange,
  newTemplateRow,
  type SaveMeta,
} from "../templates/engine/store";
import type { Statement } from "../../db/lists";
import type { IngestDeps } from "../../ingest/types";
import type { JournalEntry } from "../../lib/context";
import { toCents } from "../../lib/money";
import { comparable } from "../templates/service";
import { type MergeOutcome, mergeIntoExisting } from "./learn-merge";
import { exampleOf } from "./replay";
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

type SavePlan = { derived: Derived; meta: SaveMeta; note: string | null };

/**
 * What learning will write, decided from reads alone (so it is known before the transaction is
 * written: a merge's ledger entry rides in the template's update, the resolve's otherwise).
 */
type LearnPlan =
  | { kind: "nothing"; outcome: LearnOutcome }
  | { kind: "merge"; merge: Extract<MergeOutcome, { ok: true }>; save: SavePlan }
  | { kind: "save"; save: SavePlan };

export async function planLearning(
  deps: IngestDeps,
  row: FailureRow,
  input: ManualResolveRequest,
): Promise<LearnPlan> {
  const example = await exampleOf(deps, row);
  const learnInput = {
    ...example,
    amount: toCents(input.amount),
    merchant: input.company,
    date: input.date,
    varying: input.varying ?? [],
  };
  const derived = deriveTemplate(learnInput);
  if (!derived.ok) return { kind: "nothing", outcome: { ...NOT_ASKED, template_reason: derived.reason } };
  derived.template.pattern.sources = [row.id];
  const host = senderHost(example.fromEmail) ?? derived.template.senderDomain;
  const institution = input.institution ?? row.institution ?? nameFromHost(host);
  const type = input.transaction_type;
  const blocks = () => {
    const d = deriveTemplate({ ...learnInput, blocks: true });
    return d.ok ? { ...d.template, pattern: { ...d.template.pattern, sources: [row.id] } } : null;
  };
  const merge = await mergeIntoExisting(deps, {
    host,
    transactionType: type,
    derived: derived.template,
    example,
    asBlocksToo: blocks,
  });
  const meta = {
    name: `${institution} ${type}`,
    institution,
    transactionType: type,
    sourceFailureId: row.id,
    nowIso: deps.clock().toISOString(),
  };
  const note =
    merge.ok || !merge.reason ? null : `kept as a second template of this bank, not merged: ${merge.reason}`;
  const save = { derived: derived.template, meta, note };
  return merge.ok ? { kind: "merge", merge, save } : { kind: "save", save };
}

/** What learning adds to the resolve's insert batch (`batchedLearning`). */
interface BatchedLearning {
  /** After the failure's guarded status write: applies only when the row was inserted. */
  stmt: Statement;
  /** A merge's entry: it replaces the resolve's in that batch, guarded on the template update. */
  entry?: JournalEntry;
  /** The outcome from the batch's results: null when a merge's template went away meanwhile. */
  outcome(rowResults: unknown[] | undefined): LearnOutcome | null;
}

/**
 * The plan's write for the resolve's insert batch, so a template is saved or merged exactly when
 * the transaction is (never for a 409); an identical stored row is kept by its insert
 * (`insertTemplateAfterChange`). Null when nothing is to be written.
 */
export async function batchedLearning(
  deps: IngestDeps,
  plan: LearnPlan | null,
): Promise<BatchedLearning | null> {
  if (!plan || plan.kind === "nothing") return null;
  if (plan.kind === "merge") {
    const { before, after, updateAfterChange } = plan.merge;
    return {
      stmt: updateAfterChange,
      entry: mergeEntry(before, after),
      outcome: (rows) =>
        ((rows?.at(-1) as D1Result | undefined)?.meta?.changes ?? 0) > 0 ? merged(before, after) : null,
    };
  }
  const { derived, meta, note } = plan.save;
  const fresh = newTemplateRow(await templateId(derived), derived, meta);
  const known = deps.settings.prefetched?.templates;
  const stored =
    known?.host === derived.senderDomain
      ? known.rows.find((r) => r.id === fresh.id)
      : await getTemplateRow(deps.db, fresh.id);
  const row = stored ?? fresh;
  const outcome = {
    template_id: row.id,
    template_name: row.name,
    template_reason: null,
    template_note: note,
  };
  return { stmt: insertTemplateAfterChange(deps.db, fresh), outcome: () => outcome };
}

/** A merge's ledger entry: whole-row images, so it can be undone. */
const mergeEntry = (before: AlertTemplateRow, after: AlertTemplateRow): JournalEntry => ({
  kind: "alert_template",
  resourceId: after.id,
  before: comparable(before),
  after: comparable(after),
  summary: `Taught "${after.name}" a second wording`,
  reversible: true,
});

const merged = (before: AlertTemplateRow, after: AlertTemplateRow): LearnOutcome => ({
  template_id: after.id,
  template_name: after.name,
  template_reason: null,
  template_note: `merged into "${after.name}": one template now reads both emails`,
  merged: { before, after },
});

/** Saves the example's template after the transaction (a merge whose template went away meanwhile). */
export async function saveLearned(
  deps: IngestDeps,
  { derived, meta, note }: SavePlan,
): Promise<LearnOutcome> {
  const saved = await saveTemplate(deps.db, derived, meta);
  return { template_id: saved.id, template_name: saved.name, template_reason: null, template_note: note };
}
