/** Learned templates in D1: the ones a sender may use, saving a derived one, counting reads. */
import { eq, inArray, sql } from "drizzle-orm";
import { getDb } from "../../db";
import { type AlertTemplateRow, alertTemplates } from "../../db/schema";
import { sha256Hex } from "../hash";
import type { Derived } from "./derive";
import { readSubjectWords, readTemplatePattern } from "./stored";
import type { TemplatePattern } from "./types";

/** The host and each parent domain of it ("a.b.ca" → a.b.ca, b.ca): a template on any matches. */
export function domainsOf(host: string): string[] {
  const parts = host.split(".");
  return parts.slice(0, -1).map((_, i) => parts.slice(i).join("."));
}

/** Templates a sender's host may be read with, oldest first. */
export async function templatesForHost(d1: D1Database, host: string): Promise<AlertTemplateRow[]> {
  return getDb(d1)
    .select()
    .from(alertTemplates)
    .where(inArray(alertTemplates.sender_domain, domainsOf(host)))
    .orderBy(alertTemplates.created_at, alertTemplates.id)
    .all();
}

export const patternOf = (row: Pick<AlertTemplateRow, "pattern">): TemplatePattern | null =>
  readTemplatePattern(row.pattern);

export const wordsOf = (row: Pick<AlertTemplateRow, "subject_words">): string[] =>
  readSubjectWords(row.subject_words);

/** Learning the same shape from the same domain twice gives the same id (whichever email taught it). */
export async function templateId(t: Derived): Promise<string> {
  const { sources: _from, ...pattern } = t.pattern;
  const key = JSON.stringify([t.senderDomain, t.subjectWords, pattern]);
  return `tpl_${(await sha256Hex(key)).slice(0, 16)}`;
}

export interface SaveMeta {
  name: string;
  institution: string;
  transactionType: string;
  sourceFailureId: string | null;
  nowIso: string;
}

/** The row a derived template is saved as. */
export const newTemplateRow = (id: string, t: Derived, meta: SaveMeta): AlertTemplateRow => ({
  id,
  name: meta.name,
  institution: meta.institution,
  sender_domain: t.senderDomain,
  subject_words: t.subjectWords,
  pattern: t.pattern,
  transaction_type: meta.transactionType,
  example: t.example,
  source_failure_id: meta.sourceFailureId,
  match_count: 0,
  last_matched_at: null,
  created_at: meta.nowIso,
  updated_at: meta.nowIso,
});

/** The insert of a new row (awaited, or one of the caller's batch); an identical one already saved stays. */
export const insertTemplateRow = (d1: D1Database, row: AlertTemplateRow) =>
  getDb(d1).insert(alertTemplates).values(row).onConflictDoNothing();

/** Saves a derived template (an identical one already saved is kept as is); its stored row. */
export async function saveTemplate(d1: D1Database, t: Derived, meta: SaveMeta): Promise<AlertTemplateRow> {
  const id = await templateId(t);
  await insertTemplateRow(d1, newTemplateRow(id, t, meta));
  const row = await getDb(d1).select().from(alertTemplates).where(eq(alertTemplates.id, id)).get();
  if (!row) throw new Error(`template ${id} vanished after its write`);
  return row;
}

/** Counts one email read (a transaction created from it). */
export async function noteRead(d1: D1Database, id: string, nowIso: string): Promise<void> {
  await getDb(d1)
    .update(alertTemplates)
    .set({ match_count: sql`${alertTemplates.match_count} + 1`, last_matched_at: nowIso })
    .where(eq(alertTemplates.id, id));
}

/** A template merged with a second example (issue 27): same id, new pattern, words and example. */
export async function updatePattern(
  d1: D1Database,
  id: string,
  next: { pattern: TemplatePattern; subjectWords: string[]; example: string; nowIso: string },
): Promise<AlertTemplateRow | null> {
  const db = getDb(d1);
  await db
    .update(alertTemplates)
    .set({
      pattern: next.pattern,
      subject_words: next.subjectWords,
      example: next.example,
      updated_at: next.nowIso,
    })
    .where(eq(alertTemplates.id, id));
  return (await db.select().from(alertTemplates).where(eq(alertTemplates.id, id)).get()) ?? null;
}

/** One template by id, or null (the templates domain reads, renames and reverts through these). */
export async function getTemplateRow(d1: D1Database, id: string): Promise<AlertTemplateRow | null> {
  return (await getDb(d1).select().from(alertTemplates).where(eq(alertTemplates.id, id)).get()) ?? null;
}

/** Every template, by institution then age. */
export const listTemplateRows = (d1: D1Database) =>
  getDb(d1)
    .select()
    .from(alertTemplates)
    .orderBy(alertTemplates.institution, alertTemplates.created_at)
    .all();

/** The rename statement (awaited, or one of the caller's batch: the verb's ledger entry rides with it). */
export const renameTemplateRow = (d1: D1Database, id: string, name: string, nowIso: string) =>
  getDb(d1).update(alertTemplates).set({ name, updated_at: nowIso }).where(eq(alertTemplates.id, id));

/** The delete statement (awaited, or one of the caller's batch). */
export const deleteTemplateRow = (d1: D1Database, id: string) =>
  getDb(d1).delete(alertTemplates).where(eq(alertTemplates.id, id));

/** Writes a whole row back (awaited, or one of the caller's batch); a row that still exists keeps its read counters. */
export function restoreTemplateRow(d1: D1Database, row: AlertTemplateRow) {
  const { id: _key, match_count: _n, last_matched_at: _at, ...rest } = row;
  return getDb(d1)
    .insert(alertTemplates)
    .values(row)
    .onConflictDoUpdate({ target: alertTemplates.id, set: rest });
}
