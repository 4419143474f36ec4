/**
 * A second example of a sender that already has a template (issue 27): the two are merged into
 * one template that reads both emails exactly, or the merge is refused in words (and the caller
 * keeps the new template beside the old one).
 */
import type { AlertTemplateRow } from "../../db/schema";
import {
  type Derived,
  maskedExample,
  mergePatterns,
  patternOf,
  readWithPattern,
  type TemplatePattern,
  templatesForHost,
  updatePattern,
  wordsOf,
} from "../../ingest/templates";
import type { IngestDeps } from "../../ingest/types";
import { getFailure } from "./queries";
import { envelopeOf } from "./replay";

export interface Example {
  failureId: string;
  body: string;
  sentIso: string;
}

export type MergeOutcome =
  | { ok: true; before: AlertTemplateRow; after: AlertTemplateRow }
  | { ok: false; reason: string | null };

async function exampleOf(deps: IngestDeps, failureId: string): Promise<Example | null> {
  const row = await getFailure(deps.db, failureId);
  if (!row) return null;
  const env = await envelopeOf(deps, row);
  const l = env.local;
  return { failureId, body: env.email.text, sentIso: `${l.year}-${l.month}-${l.day}` };
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** Checks that `merged` reads every example as the template that learned it did. */
async function verify(
  deps: IngestDeps,
  merged: TemplatePattern,
  old: TemplatePattern,
  fresh: { pattern: TemplatePattern; example: Example },
): Promise<string | null> {
  for (const id of merged.sources ?? []) {
    const isNew = id === fresh.example.failureId;
    const ex = isNew ? fresh.example : await exampleOf(deps, id);
    if (!ex)
      return "the email the template was first learned from is no longer stored, so a merge cannot be checked";
    const want = readWithPattern(isNew ? fresh.pattern : old, ex.body, ex.sentIso);
    const got = readWithPattern(merged, ex.body, ex.sentIso);
    if (!want.ok || !got.ok || !same(want.values, got.values))
      return `the merged template would not read ${isNew ? "this email" : "the earlier email"} exactly (${got.ok ? "different values" : got.reason})`;
  }
  return null;
}

export async function mergeIntoExisting(
  deps: IngestDeps,
  host: string,
  transactionType: string,
  derived: Derived,
  example: Example,
): Promise<MergeOutcome> {
  const rows = (await templatesForHost(deps.db, host))
    .filter((r) => r.transaction_type === transactionType && r.sender_domain === derived.senderDomain)
    .reverse();
  let reason: string | null = null;
  for (const row of rows) {
    const old = patternOf(row);
    if (!old) continue;
    const from = { ...old, sources: old.sources ?? (row.source_failure_id ? [row.source_failure_id] : []) };
    const m = mergePatterns(from, derived.pattern);
    if (!m.ok) {
      reason = m.reason;
      continue;
    }
    const bad = await verify(deps, m.pattern, old, { pattern: derived.pattern, example });
    if (bad) {
      reason = bad;
      continue;
    }
    const words = wordsOf(row).filter((w) => derived.subjectWords.includes(w));
    const after = await updatePattern(deps.db, row.id, {
      pattern: m.pattern,
      subjectWords: words,
      example: maskedExample(m.pattern),
      nowIso: deps.clock().toISOString(),
    });
    if (after) return { ok: true, before: row, after };
  }
  return { ok: false, reason };
}
