/**
 * The files of a backup (format 2): every R2 object a row points to, streamed from R2 into the zip
 * chunk by chunk (one object's chunk in memory at a time), named by the row (never by a key the
 * restore would trust): receipts and documents, statement files, raw emails.
 */
import { asc, gt, sql } from "drizzle-orm";
import type { ZipLevel, ZipWriter } from "../../lib/zip-writer";
import type { Db } from "../../db";
import { attachments, statements } from "../../db/schema";
import { isAttachmentKey } from "../attachments/files";
import { EMAIL_SPACE, entryName } from "./restore-files";

const PAGE = 500;

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

/** Every id-keyed row of a table, in pages. */
async function* keyed(db: Db, table: typeof attachments | typeof statements) {
  let after = "";
  for (;;) {
    const rows = await db
      .select({ id: table.id, r2_key: table.r2_key })
      .from(table)
      .where(gt(table.id, after))
      .orderBy(asc(table.id))
      .limit(PAGE);
    yield* rows;
    if (rows.length < PAGE) return;
    after = rows.at(-1)!.id;
  }
}

/** The raw-email keys rows point to (transactions and quarantine), each once, in key order. */
async function* emailKeys(db: Db) {
  let after = "";
  for (;;) {
    const rows = await db.all<{ k: string }>(
      sql`SELECT k FROM (SELECT FileName AS k FROM transactions WHERE FileName LIKE 'emails/%'
          UNION SELECT raw_key AS k FROM parse_failures WHERE raw_key LIKE 'emails/%')
          WHERE k > ${after} ORDER BY k LIMIT ${PAGE}`,
    );
    for (const r of rows) if (EMAIL_SPACE.test(r.k)) yield r.k;
    if (rows.length < PAGE) return;
    after = rows.at(-1)!.k;
  }
}

export async function writeFiles(db: Db, bucket: R2Bucket, zip: ZipWriter): Promise<FileCounts> {
  const counts: FileCounts = { attachments: 0, statements: 0, emails: 0, missing: 0 };
  for (const [table, def] of [
    ["attachments", attachments],
    ["statements", statements],
  ] as const) {
    for await (const row of keyed(db, def)) {
      const name = entryName(table, row);
      // Only keys of the shape uploads make (a row restored by an old build could name another object).
      const ours =
        table === "attachments" ? isAttachmentKey(row.r2_key) : row.r2_key.startsWith("statements/");
      // Images and PDFs are compressed already: stored (level 0) costs no CPU.
      if (name && ours && (await addObject(bucket, zip, name, row.r2_key, 0))) counts[table]++;
      else counts.missing++;
    }
  }
  for await (const key of emailKeys(db)) {
    if (await addObject(bucket, zip, `files/${key}`, key, 6)) counts.emails++;
    else counts.missing++;
  }
  return counts;
}
