/**
 * A parse failure's row and the reads its replay needs (its recipient's mapping, its sender's
 * learned templates, its email year's budget targets), keyed by the row's id in one batch: the
 * settings batch of the retry and the resolve (`createKeyedDeps`), one round trip, not two.
 */
import type { Db } from "../../db";
import type { AlertTemplateRow } from "../../db/schema";
import { yearsTargetsQuery, yearTargetsQuery } from "../budget/queries";
import type { RowKeys, RowPart } from "../../ingest";
import { allTemplatesPart, senderTemplatesPart } from "../templates/engine";
import { mappingQuery, mappingsInQuery } from "../../ingest/users";
import {
  type BacklogAfter,
  backlogKeys,
  backlogQuery,
  failureKeys,
  failureQuery,
  failuresInQuery,
} from "./queries";
import type { FailureRow } from "./rules";

/** The year of a stored email date (`MM/DD/YYYY HH:MM zone`), else undefined. */
export const yearOf = (emailDate: string | null) => {
  const m = /^\d{2}\/\d{2}\/(\d{4})\b/.exec(emailDate ?? "");
  return m ? Number(m[1]) : undefined;
};

/** The failure and, when asked, the emails its sender's templates learned from (null: not read). */
export interface KeyedFailure {
  failure: FailureRow;
  examples: FailureRow[] | null;
}

/**
 * `withYear`: the stored email date's year names the targets (a retry; a resolve types its date).
 * `withExamples`: the failures the sender's templates learned from too (a resolve that may merge).
 */
export function failurePart(
  db: Db,
  id: string,
  { withYear, withExamples = false }: { withYear: boolean; withExamples?: boolean },
): RowPart<KeyedFailure> {
  const keys = failureKeys(id);
  const templates = senderTemplatesPart(db, keys.fromEmail);
  const queries = [
    failureQuery(db, id),
    mappingQuery(db, keys.recipient),
    templates.query,
    ...(withYear ? [yearTargetsQuery(db, keys.year)] : []),
    ...(withExamples ? [failuresInQuery(db, templates.sources)] : []),
  ];
  return {
    queries,
    read(results) {
      const [[row] = [], mapping = [], tpl = [], ...rest] = results as [
        FailureRow[],
        { userId: string | null }[],
        AlertTemplateRow[],
        ...unknown[],
      ];
      const examples = withExamples ? (rest.pop() as FailureRow[]) : null;
      const docs = withYear ? (rest.pop() as { user_id: string; data: unknown }[]) : undefined;
      if (!row) return { row: null, keys: null };
      const year = withYear ? yearOf(row.email_date) : undefined;
      const sender = templates.narrow(tpl, row.from_email);
      const out: RowKeys = {
        recipient: row.forwarded_to ?? "",
        userId: mapping[0]?.userId ?? null,
        ...(year !== undefined && docs ? { targets: { year, docs } } : {}),
        ...(sender ? { templates: sender } : {}),
      };
      return { row: { failure: row, examples }, keys: out };
    },
  };
}

/** The quarantined backlog and, per row, what its replay would read (null: read step by step). */
export interface Backlog {
  rows: FailureRow[];
  keysOf(row: FailureRow): RowKeys | null;
}

/** ASCII folding, as SQLite's lower() and NOCASE fold. */
const fold = (s: string) => s.replace(/[A-Z]/g, (c) => c.toLowerCase());

/**
 * Retry-all's reads in the settings batch: the backlog (with bodies) and what its rows key, for
 * all of them at once: their recipients' mappings, every learned template (narrowed per sender)
 * and their stored years' budget targets. A fixed number of round trips for the whole set.
 */
export function backlogPart(db: Db, limit: number, after: BacklogAfter = null): RowPart<Backlog> {
  const keys = backlogKeys();
  const templates = allTemplatesPart(db);
  return {
    queries: [
      backlogQuery(db, limit, "quarantined", after),
      mappingsInQuery(db, keys.recipients),
      templates.query,
      yearsTargetsQuery(db, keys.years),
    ],
    read(results) {
      const [rows, mappings, tpl, docs] = results as [
        FailureRow[],
        { forwardedTo: string; userId: string | null }[],
        AlertTemplateRow[],
        { year: number; user_id: string; data: unknown }[],
      ];
      const users = new Map<string, string | null>();
      for (const m of mappings) if (!users.has(fold(m.forwardedTo))) users.set(fold(m.forwardedTo), m.userId);
      const keysOf = (row: FailureRow): RowKeys => {
        const year = yearOf(row.email_date);
        const sender = templates.narrow(tpl, row.from_email);
        return {
          recipient: row.forwarded_to ?? "",
          userId: users.get(fold(row.forwarded_to ?? "")) ?? null,
          ...(year !== undefined
            ? { targets: { year, docs: docs.filter((d) => d.year === year).map(({ year: _, ...d }) => d) } }
            : {}),
          ...(sender ? { templates: sender } : {}),
        };
      };
      return { row: { rows, keysOf }, keys: null };
    },
  };
}
