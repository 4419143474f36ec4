import type { Db } from "../../../db";
import type { AlertTemplateRow } from "../../../db/schema";
import { sha256Hex } from "../../../ingest/hash";
import type { Derived } from "./derive";
import { insertTemplateRow, setPatternColumns, templateByIdQuery, templatesOfDomainsQuery } from "./queries";
import { readSubjectWords, readTemplatePattern } from "./stored";
import type { TemplatePattern } from "./types";

export { getTemplateRow, insertTemplateAfterChange, noteRead } from "./queries";

/** The host and each parent domain of it ("a.b.ca" → a.b.ca, b.ca): a template on any matches. */
export function domainsOf(host: string): string[] {
  const parts = host.split(".");
  return parts.slice(0, -1).map((_, i) => parts.slice(i).join("."));
}

/** Templates a sender's host may be read with, oldest first (a statement of a caller's batch, or awaited). */
export const templatesForHostQuery = (db: Db, host: string) => templatesOfDomainsQuery(db, domainsOf(host));
export const templatesForHost = (db: Db, host: string) => templatesForHostQuery(db, host).all();

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

/** Saves a derived template (an identical one already saved is kept as is); its stored row. */
export async function saveTemplate(db: Db, t: Derived, meta: SaveMeta): Promise<AlertTemplateRow> {
  const id = await templateId(t);
  const [, [row]] = await db.batch([
    insertTemplateRow(db, newTemplateRow(id, t, meta)),
    templateByIdQuery(db, id),
  ]);
  if (!row) throw new Error(`template ${id} vanished after its write`);
  return row;
}

/**
 * A template merged with a second example: same id, new pattern, words and example.
 * The row as it will read back once written (JSON columns as stored) and its update statement,
 * which the caller runs in the batch that carries its ledger entry (`updateAfterChange`: guarded
 * on the statement before it, `changes() > 0`).
 */
export function patternUpdate(
  db: Db,
  row: AlertTemplateRow,
  next: { pattern: TemplatePattern; subjectWords: string[]; example: string; nowIso: string },
) {
  const cols = {
    pattern: next.pattern,
    subject_words: next.subjectWords,
    example: next.example,
    updated_at: next.nowIso,
  };
  const after = JSON.parse(JSON.stringify({ ...row, ...cols })) as AlertTemplateRow;
  return {
    after,
    updateAfterChange: setPatternColumns(db, row.id, cols, true),
  };
}
