/**
 * A parse failure's row and the reads its replay needs (its recipient's mapping, its sender's
 * learned templates, its email year's budget targets), keyed by the row's id in one batch: the
 * settings batch of the retry and the resolve (`createKeyedDeps`), one round trip, not two.
 */
import { getDb } from "../../db";
import type { AlertTemplateRow } from "../../db/schema";
import { yearTargetsQuery } from "../budget/queries";
import type { RowKeys, RowPart } from "../../ingest";
import { senderTemplatesPart } from "../../ingest/templates";
import { mappingQuery } from "../../ingest/users";
import { failureKeys, failureQuery, getFailure } from "./queries";
import type { FailureRow } from "./rules";

/** The year of a stored email date (`MM/DD/YYYY HH:MM zone`), else undefined. */
export const yearOf = (emailDate: string | null) => {
  const m = /^\d{2}\/\d{2}\/(\d{4})\b/.exec(emailDate ?? "");
  return m ? Number(m[1]) : undefined;
};

/** `withYear`: the stored email date's year names the targets (a retry; a resolve types its date). */
export function failurePart(
  d1: D1Database,
  id: string,
  { withYear }: { withYear: boolean },
): RowPart<FailureRow> {
  const db = getDb(d1);
  const keys = failureKeys(id);
  const templates = senderTemplatesPart(d1, keys.fromEmail);
  const queries = [
    failureQuery(db, id),
    mappingQuery(db, keys.recipient),
    templates.query,
    ...(withYear ? [yearTargetsQuery(db, keys.year)] : []),
  ];
  return {
    queries,
    read(results) {
      const [[row] = [], mapping = [], tpl = [], docs] = results as [
        FailureRow[],
        { userId: string | null }[],
        AlertTemplateRow[],
        { user_id: string; data: unknown }[] | undefined,
      ];
      if (!row) return { row: null, keys: null };
      const year = withYear ? yearOf(row.email_date) : undefined;
      const sender = templates.narrow(tpl, row.from_email);
      const out: RowKeys = {
        recipient: row.forwarded_to ?? "",
        userId: mapping[0]?.userId ?? null,
        ...(year !== undefined && docs ? { targets: { year, docs } } : {}),
        ...(sender ? { templates: sender } : {}),
      };
      return { row, keys: out };
    },
    alone: () => getFailure(d1, id),
  };
}
