/**
 * A second example of a sender that already has a template: the two are merged into
 * one template that reads both emails exactly, or the merge is refused in words (and the caller
 * keeps the new template beside the old one).
 */
import type { AlertTemplateRow } from "../../db/schema";
import {
  type Derived,
  deriveTemplate,
  maskedExample,
  mergePatterns,
  patternOf,
  readWithPattern,
  type TemplatePattern,
  templatesForHost,
  patternUpdate,
  wordsOf,
} from "../templates/engine";
import type { IngestDeps } from "../../ingest/types";
import { getFailures } from "./queries";
import type { FailureRow } from "./rules";
import { type Example, exampleOf } from "./replay";

/** A merge found (not yet written: `update` is its statement, `after` the row it writes) or why not. */
export type MergeOutcome =
  | ({ ok: true; before: AlertTemplateRow } & ReturnType<typeof patternUpdate>)
  | { ok: false; reason: string | null };

/** A stored example by failure id (its row from D1, its raw from R2). */
type Examples = (failureId: string) => Promise<Example | null>;

/**
 * The examples of a merge's candidate templates: the rows of every email they learned from are read
 * together on first use, and each example is built once (the re-learning and the check both ask
 * for the same email).
 */
function examplesOf(deps: IngestDeps, rows: AlertTemplateRow[]): Examples {
  const ids = [...new Set(rows.flatMap((r) => sourcesOf(r)))];
  let stored: Promise<Map<string, FailureRow>> | null = null;
  const built = new Map<string, Promise<Example | null>>();
  const build = async (failureId: string) => {
    stored ??= getFailures(deps.db, ids).then((found) => new Map(found.map((f) => [f.id, f])));
    const row = (await stored).get(failureId);
    return row ? exampleOf(deps, row) : null;
  };
  return (failureId) => {
    if (!built.has(failureId)) built.set(failureId, build(failureId));
    return built.get(failureId)!;
  };
}

/** The emails a template learned from (its pattern's sources, else the one that taught it). */
const sourcesOf = (row: AlertTemplateRow): string[] =>
  patternOf(row)?.sources ?? (row.source_failure_id ? [row.source_failure_id] : []);

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** Checks that `merged` reads every example as the template that learned it did. */
async function verify(
  examples: Examples,
  merged: TemplatePattern,
  old: TemplatePattern,
  fresh: { pattern: TemplatePattern; example: Example },
): Promise<string | null> {
  for (const id of merged.sources ?? []) {
    const isNew = id === fresh.example.failureId;
    const ex = isNew ? fresh.example : await examples(id);
    if (!ex)
      return "the email the template was first learned from is no longer stored, so a merge cannot be checked";
    const want = readWithPattern(isNew ? fresh.pattern : old, ex.body, ex.sentIso);
    const got = readWithPattern(merged, ex.body, ex.sentIso);
    if (!want.ok || !got.ok || !same(want.values, got.values))
      return `the merged template would not read ${isNew ? "this email" : "the earlier email"} exactly (${got.ok ? "different values" : got.reason})`;
  }
  return null;
}

/**
 * A one-example template re-learned with consecutive value lines as one entry (from its email and
 * what it reads there), for a merge with an email that broke its lines elsewhere.
 */
async function asBlocks(examples: Examples, old: TemplatePattern): Promise<Derived | null> {
  const id = old.sources?.[0];
  const ex = id && old.sources?.length === 1 ? await examples(id) : null;
  const r = ex ? readWithPattern(old, ex.body, ex.sentIso) : null;
  if (!ex || !r?.ok) return null;
  const d = deriveTemplate({
    fromEmail: ex.fromEmail,
    subject: ex.subject,
    body: ex.body,
    sentIso: ex.sentIso,
    amount: r.values.amount,
    merchant: r.values.merchant,
    date: r.values.date ?? ex.sentIso,
    blocks: true,
  });
  return d.ok ? { ...d.template, pattern: { ...d.template.pattern, sources: old.sources } } : null;
}

/**
 * A new example to merge: its sender's host, its type, the template derived from it and the same
 * re-derived with value lines as blocks.
 */
interface MergeInput {
  host: string;
  transactionType: string;
  derived: Derived;
  example: Example;
  asBlocksToo: () => Derived | null;
}

/** The first of the sender's templates that merges with this example, checked on every email it read. */
export async function mergeIntoExisting(deps: IngestDeps, input: MergeInput): Promise<MergeOutcome> {
  const { host, transactionType, derived, example, asBlocksToo } = input;
  // Read with the settings when the caller knew the host up front (the resolve), else now.
  const known = deps.settings.prefetched?.templates;
  const rows = (known?.host === host ? known.rows : await templatesForHost(deps.db, host))
    .filter((r) => r.transaction_type === transactionType && r.sender_domain === derived.senderDomain)
    .reverse();
  const examples = examplesOf(deps, rows);
  let reason: string | null = null;
  for (const row of rows) {
    const old = patternOf(row);
    if (!old) continue;
    const from = { ...old, sources: sourcesOf(row) };
    let m = mergePatterns(from, derived.pattern);
    if (!m.ok && /number of lines|different order/.test(m.reason)) {
      // The two emails broke their sentences at different places: try whole paragraphs.
      const [a, b] = [await asBlocks(examples, from), asBlocksToo()];
      const again = a && b ? mergePatterns(a.pattern, b.pattern) : null;
      if (again?.ok) m = again;
    }
    if (!m.ok) {
      reason = m.reason;
      continue;
    }
    const bad = await verify(examples, m.pattern, old, { pattern: derived.pattern, example });
    if (bad) {
      reason = bad;
      continue;
    }
    const words = wordsOf(row).filter((w) => derived.subjectWords.includes(w));
    const next = { pattern: m.pattern, subjectWords: words, example: maskedExample(m.pattern) };
    return {
      ok: true,
      before: row,
      ...patternUpdate(deps.db, row, { ...next, nowIso: deps.clock().toISOString() }),
    };
  }
  return { ok: false, reason };
}
