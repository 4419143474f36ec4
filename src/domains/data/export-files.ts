/**
 * The files of a backup (format 2): every R2 object a row points to, streamed from R2 into the zip
 * chunk by chunk (one object's chunk in memory at a time), named by the row (never by a key the
 * restore would trust): receipts and documents, statement files, raw emails.
 */
import type { ZipLevel, ZipWriter } from "../../lib/zip-writer";
import { isAttachmentKey } from "../attachments/files";
import type { PageSource } from "./pages";
import { EMAIL_SPACE, entryName } from "./restore-files";

export interface FileCounts {
  attachments: number;
  statements: number;
  emails: number;
  missing: number;
}

/** Streams one R2 object into a zip entry; false when the object is missing. */
async function addObject(bucket: R2Bucket, zip: ZipWriter, name: string, key: string, level: ZipLevel) {
  const obj = await bucket.get(key);
  if (!obj) return false;
  await zip.stream(name, obj.body, level);
  return true;
}

/**
 * A key list read in pages (`sql` takes the last key, then ends in the limit), each page's files
 * streamed into the zip as it arrives.
 */
function keyList(
  d1: D1Database,
  sql: string,
  onPage: (rows: Record<string, unknown>[]) => Promise<void>,
): PageSource<D1PreparedStatement> {
  let after = "";
  return {
    page: (limit) => d1.prepare(`${sql} ?`).bind(after, limit),
    take: async (rows) => {
      await onPage(rows);
      after = String(rows.at(-1)?.k ?? after);
    },
  };
}

/** The file lists of a backup, in zip order: each's key-page SQL (takes the last key, ends in the limit). */
export const FILE_LISTS = [
  {
    list: "attachments",
    sql: `SELECT id AS k, r2_key FROM "attachments" WHERE id > ? ORDER BY id LIMIT`,
  },
  {
    list: "statements",
    sql: `SELECT id AS k, r2_key FROM "statements" WHERE id > ? ORDER BY id LIMIT`,
  },
  {
    list: "emails",
    sql: `SELECT k FROM (SELECT FileName AS k FROM transactions WHERE FileName LIKE 'emails/%'
     UNION SELECT raw_key AS k FROM parse_failures WHERE raw_key LIKE 'emails/%')
     WHERE k > ? ORDER BY k LIMIT`,
  },
] as const;
export type FileList = (typeof FILE_LISTS)[number]["list"];

/**
 * The zip entry of one key-page row: its name, the R2 key to read and the deflate level (images and
 * PDFs are compressed already: level 0 costs no CPU); null for a key the backup never reads (a row
 * restored by an old build could name another object).
 */
export function fileEntry(
  list: FileList,
  r: Record<string, unknown>,
): { name: string; key: string; level: 0 | 6 } | null {
  if (list === "emails") {
    const key = String(r.k);
    return EMAIL_SPACE.test(key) ? { name: `files/${key}`, key, level: 6 } : null;
  }
  const row = { id: String(r.k), r2_key: String(r.r2_key) };
  const name = entryName(list, row);
  const ours = list === "attachments" ? isAttachmentKey(row.r2_key) : row.r2_key.startsWith("statements/");
  return name && ours ? { name, key: row.r2_key, level: 0 } : null;
}

/**
 * The page sources of the files, in zip order (after the tables): id-keyed attachments and
 * statements, then the raw-email keys rows point to (transactions and quarantine), each once, in
 * key order. `sizes`: how many keys each may hold at most, from the inventory's row counts.
 */
export function fileSources(d1: D1Database, bucket: R2Bucket, zip: ZipWriter) {
  const tally: FileCounts = { attachments: 0, statements: 0, emails: 0, missing: 0 };
  const sources = FILE_LISTS.map(({ list, sql }) =>
    keyList(d1, sql, async (page) => {
      for (const r of page) {
        const e = fileEntry(list, r);
        // A key outside the email space is skipped (never counted); any other unreadable one is missing.
        if (!e && list === "emails") continue;
        if (e && (await addObject(bucket, zip, e.name, e.key, e.level))) tally[list]++;
        else tally.missing++;
      }
    }),
  );
  const sizes = (counts: Record<string, number>) => [
    counts.attachments ?? 0,
    counts.statements ?? 0,
    (counts.transactions ?? 0) + (counts.parse_failures ?? 0),
  ];
  return { sources, sizes, counts: tally };
}
