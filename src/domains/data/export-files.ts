/**
 * The files of a backup (format 2): every R2 object a row points to, streamed from R2 into the zip
 * chunk by chunk (one object's chunk in memory at a time), named by the row (never by a key the
 * restore would trust): receipts and documents, statement files, raw emails.
 */
import { isAttachmentKey } from "../attachments/files";
import { EMAIL_SPACE, entryName } from "./restore-files";

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
