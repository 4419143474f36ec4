/**
 * An ignored email's row and the reads its re-run needs, keyed by the row's id in one batch (the
 * settings batch, `createKeyedDeps`): its recipient's mapping, its sender's learned templates, its
 * year's budget targets and what an unread email reads (trust, the failures kept for its bytes,
 * its sender domain's drift state), all SQL subqueries on the row's stored columns, which are the
 * parse's own values (recipient, sender, Message-ID, hash, date), not guesses from the head.
 */
import type { Db } from "../../db";
import type { AlertTemplateRow, IgnoredEmailRow } from "../../db/schema";
import type { RowKeys, RowPart } from "../../ingest";
import { ignoredKeys, ignoredRowQuery } from "./ignored";
import { senderTemplatesPart } from "../templates/engine";
import { unreadKeyedPart } from "../../ingest/unread";
import { mappingQuery } from "../../ingest/users";
import { yearTargetsQuery } from "../budget/queries";

/** The year of a stored email date (`MM/DD/YYYY HH:MM zone`), else undefined. */
const yearOf = (emailDate: string | null) => {
  const m = /^\d{2}\/\d{2}\/(\d{4})\b/.exec(emailDate ?? "");
  return m ? Number(m[1]) : undefined;
};

export function ignoredPart(db: Db, id: string): RowPart<IgnoredEmailRow> {
  const keys = ignoredKeys(id);
  const templates = senderTemplatesPart(db, keys.fromEmail);
  const unread = unreadKeyedPart(db, keys);
  return {
    queries: [
      ignoredRowQuery(db, id),
      mappingQuery(db, keys.recipient),
      templates.query,
      yearTargetsQuery(db, keys.year),
      ...unread.queries,
    ],
    async read(results) {
      const [[row] = [], mapping = [], tpl = [], docs = [], ...rest] = results as [
        IgnoredEmailRow[],
        { userId: string | null }[],
        AlertTemplateRow[],
        { user_id: string; data: unknown }[],
        ...unknown[],
      ];
      if (!row) return { row: null, keys: null };
      const year = yearOf(row.email_date);
      const sender = templates.narrow(tpl, row.from_email);
      const key = { fromEmail: row.from_email ?? "", messageId: row.message_id, rawSha256: row.raw_sha256 };
      const facts = await unread.read(rest, key);
      const out: RowKeys = {
        recipient: row.forwarded_to ?? "",
        userId: mapping[0]?.userId ?? null,
        ...(year !== undefined ? { targets: { year, docs } } : {}),
        ...(sender ? { templates: sender } : {}),
        ...(facts ? { unread: { key, facts } } : {}),
      };
      return { row, keys: out };
    },
  };
}
