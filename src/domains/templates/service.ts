import { getDb } from "../../db";
import type { AlertTemplateRow } from "../../db/schema";
import { createIngestDeps, headReads } from "../../ingest";
import { sha256Hex } from "../../ingest/hash";
import { parseMime } from "../../ingest/mime";
import { makeEnvelope } from "../../ingest/pipeline";
import { hostMatches, patternOf, readWithPattern, senderHost, subjectWords, wordsOf } from "./engine";
import { readSubjectWords, readTemplatePattern } from "./engine/stored";
import {
  deleteTemplateRow,
  getTemplateRow,
  listTemplateRows,
  renameTemplateRow,
  restoreTemplateRow,
} from "./engine/queries";
import type { ServiceCtx } from "../../lib/context";
import { notFound } from "../../lib/errors";
import { fromCents } from "../../lib/money";
import type { TemplateSummary, TemplateTestResponse } from "./schemas";

/** A reversible ledger entry over whole template rows (`alert_template`). */
export const templateEntry = (id: string, before: object | null, after: object | null, summary: string) =>
  ({ kind: "alert_template", resourceId: id, before, after, summary, reversible: true }) as const;

export function toSummary(row: AlertTemplateRow): TemplateSummary {
  const { pattern: _pattern, ...summary } = row;
  return { ...summary, subject_words: wordsOf(row) };
}

async function mustGet(ctx: ServiceCtx, id: string): Promise<AlertTemplateRow> {
  const row = await getTemplateRow(getDb(ctx.env.DB), id);
  if (!row) throw notFound("Template");
  return row;
}

export async function listTemplates(ctx: ServiceCtx) {
  const rows = await listTemplateRows(getDb(ctx.env.DB));
  return { count: rows.length, templates: rows.map(toSummary) };
}

/** Renames; returns the ledger images (whole rows, so a revert writes the row back as it was). */
export async function renameTemplate(ctx: ServiceCtx, { id, name }: { id: string; name: string }) {
  const before = await mustGet(ctx, id);
  const after = { ...before, name, updated_at: ctx.clock().toISOString() };
  ctx.journal(templateEntry(id, before, comparable(after), `Renamed template to ${name}`));
  await ctx.batch([renameTemplateRow(getDb(ctx.env.DB), id, name, after.updated_at)]);
  return { before, after: comparable(after), response: toSummary(after) };
}

export async function deleteTemplate(ctx: ServiceCtx, id: string) {
  const before = await mustGet(ctx, id);
  ctx.journal(templateEntry(id, before, null, `Deleted template ${before.name}`));
  await ctx.batch([deleteTemplateRow(getDb(ctx.env.DB), id)]);
  return { before, after: null };
}

/**
 * A row as a ledger image compares it: without its read counters, which move with every email
 * and are no edit of the person's (a revert is not stale because an alert was read since).
 */
export function comparable(row: AlertTemplateRow | null) {
  if (!row) return null;
  const { match_count: _n, last_matched_at: _at, ...rest } = row;
  return rest;
}

export const currentTemplate = async (ctx: Pick<ServiceCtx, "env">, id: string) =>
  comparable(await getTemplateRow(getDb(ctx.env.DB), id));

/** Reverter: writes a whole-row image back (null or `{}`: the template did not exist), with the revert's entry. */
export async function restoreTemplate(
  ctx: ServiceCtx,
  { id, image, journal }: { id: string; image: Record<string, unknown> | null; journal?: () => void },
) {
  // Images hold the pattern as JSON text (older ledger entries) or as the object.
  const pattern = image?.pattern ? readTemplatePattern(image.pattern) : null;
  journal?.(); // the revert's own entry rides in the restore's batch
  if (!image || !pattern) {
    await ctx.batch([deleteTemplateRow(getDb(ctx.env.DB), id)]);
    return;
  }
  const str = (k: string) => {
    const v = image[k];
    return typeof v === "string" ? v : null;
  };
  const row: AlertTemplateRow = {
    id,
    name: str("name") ?? id,
    institution: str("institution") ?? "Other",
    sender_domain: str("sender_domain") ?? "",
    subject_words: readSubjectWords(image.subject_words ?? []),
    pattern,
    transaction_type: str("transaction_type") ?? "purchase",
    example: str("example") ?? "",
    source_failure_id: str("source_failure_id"),
    match_count: typeof image.match_count === "number" ? image.match_count : 0,
    last_matched_at: str("last_matched_at"),
    created_at: str("created_at") ?? "",
    updated_at: str("updated_at") ?? "",
  };
  await ctx.batch([restoreTemplateRow(getDb(ctx.env.DB), row)]);
}

/** What the template would read from a raw email; nothing is written. */
export async function testTemplate(
  ctx: ServiceCtx,
  { id, raw }: { id: string; raw: string },
): Promise<TemplateTestResponse> {
  const row = await mustGet(ctx, id);
  const bytes = new TextEncoder().encode(raw);
  // The email's recipient (its user mapping) is read with the settings.
  const { recipient } = await headReads(ctx.env, bytes, ctx.clock);
  const deps = await createIngestDeps(ctx.env, {
    clock: ctx.clock,
    ai: null,
    source: "template-test",
    ...(recipient ? { recipient } : {}),
  });
  const env = await makeEnvelope(deps, await parseMime(bytes), await sha256Hex(bytes), "");
  const base = { institution: row.institution, transaction_type: row.transaction_type };
  const none = (reason: string) => ({
    ...base,
    matched: false,
    reason,
    amount: null,
    company: null,
    date: null,
    time: null,
  });
  const host = senderHost(env.email.fromEmail);
  if (!host || !hostMatches(host, row.sender_domain))
    return none(`the sender is not at ${row.sender_domain}`);
  const words = new Set(subjectWords(env.email.subject));
  const missing = wordsOf(row).filter((w) => !words.has(w));
  if (missing.length) return none(`the subject lacks the words: ${missing.join(", ")}`);
  const pattern = patternOf(row);
  if (!pattern) return none("the stored template is unreadable");
  const l = env.local;
  const r = readWithPattern(pattern, env.email.text, `${l.year}-${l.month}-${l.day}`);
  if (!r.ok) return none(r.reason);
  const v = r.values;
  return {
    ...base,
    matched: true,
    reason: null,
    amount: fromCents(v.amount),
    company: v.merchant,
    date: v.date,
    time: v.time,
  };
}
