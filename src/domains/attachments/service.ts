/** Attachments: upload (upsert), list, the file, link/unlink, delete. */
import { getDb } from "../../db";
import type { AttachmentRow } from "../../db/schema";
import type { ServiceCtx } from "../../lib/context";
import { notFound, validationError } from "../../lib/errors";
import { decodeTxId, encodeTxId } from "../../lib/txid";
import { sha256Hex } from "../../ingest/hash";
import { attachmentId, isAttachmentKey, objectKey, putObject, type Upload } from "./files";
import { FAMILIES, type FileFamily, sniff } from "./filetype";
import { toStoredImage } from "./heic";
import * as q from "./queries";
import type { AttachmentListResponse, AttachmentResponse } from "./schemas";
import { readReceipt } from "./stored";

/** An attachment entry; only link images are reversible (uploads and deletes touch R2). */
const entry = (
  id: string,
  before: object | null,
  after: object | null,
  summary: string,
  reversible = false,
) => ({
  kind: "attachment",
  resourceId: id,
  before,
  after,
  summary,
  reversible,
});

function txIdOf(r: AttachmentRow): string | null {
  return r.tx_forwarded_to && r.tx_date_file_name ? encodeTxId(r.tx_forwarded_to, r.tx_date_file_name) : null;
}

export function toResponse(r: AttachmentRow): AttachmentResponse {
  const parsed = readReceipt(r.parse_json);
  return {
    id: r.id,
    original_filename: r.original_filename,
    content_type: r.content_type,
    size_bytes: r.size_bytes,
    sha256: r.sha256,
    kind: r.kind,
    parse_status: r.parse_status,
    parse_error: r.parse_error,
    parse_json: parsed,
    tx_id: txIdOf(r),
    created_at: r.created_at,
    updated_at: r.updated_at,
  };
}

/** The ledger image of a link (what link/unlink revert compares and restores). */
export const linkImage = (r: AttachmentRow | null) => (r ? { tx_id: txIdOf(r) } : null);

export async function loadAttachment(ctx: ServiceCtx, id: string): Promise<AttachmentRow> {
  const row = await q.getAttachment(getDb(ctx.env.DB), id);
  if (!row) throw notFound("Attachment");
  return row;
}

/** A tx_id that names a stored transaction; 422 for a malformed id, 404 for a missing row. */
async function existingTx(
  ctx: ServiceCtx,
  { txId, loc = ["body", "tx_id"] }: { txId: string; loc?: string[] },
) {
  const key = decodeTxId(txId);
  if (!key) throw validationError([{ loc, msg: "Not a transaction id", type: "value_error" }]);
  const row = await q.getTx(getDb(ctx.env.DB), key);
  if (!row || row.DeletedAt) throw notFound("Transaction");
  return { key, row };
}

export async function upload(ctx: ServiceCtx, input: Upload & { family: FileFamily }) {
  const link = input.txId ? (await existingTx(ctx, { txId: input.txId })).key : null;
  const hash = await sha256Hex(input.bytes);
  const id = await attachmentId(hash, input.filename);
  const before = await q.getAttachment(getDb(ctx.env.DB), id);
  const now = ctx.clock();
  let row: AttachmentRow;
  if (before) {
    // The same file under the same name: refresh the row; the stored object is already there.
    row = {
      ...before,
      kind: input.kind,
      tx_forwarded_to: link?.forwardedTo ?? before.tx_forwarded_to,
      tx_date_file_name: link?.dateFileName ?? before.tx_date_file_name,
      updated_at: now.toISOString(),
    };
  } else {
    // HEIC/HEIF becomes a JPEG here (413/422 when it cannot); the id above stays the original's.
    const stored = await toStoredImage(ctx.env, input.family, input.bytes);
    const family = stored.family;
    const key = objectKey(now, hash, family);
    await putObject(ctx.env, key, stored.bytes, FAMILIES[family].contentType);
    row = {
      id,
      original_filename: input.filename,
      content_type: FAMILIES[family].contentType,
      size_bytes: stored.bytes.byteLength,
      sha256: hash,
      kind: input.kind,
      r2_key: key,
      tx_forwarded_to: link?.forwardedTo ?? null,
      tx_date_file_name: link?.dateFileName ?? null,
      parse_status: "unparsed",
      parse_error: null,
      parse_json: null,
      created_at: now.toISOString(),
      updated_at: now.toISOString(),
    };
  }
  const after = toResponse(row);
  const verb = before ? "Re-uploaded" : "Uploaded";
  const summary = `${verb} ${after.kind} ${after.original_filename}`;
  ctx.journal(entry(id, before ? toResponse(before) : {}, after, summary));
  await ctx.batch([q.upsertAttachmentQuery(getDb(ctx.env.DB), row)]);
  return after;
}

const listOf = (rows: AttachmentRow[]): AttachmentListResponse => ({
  count: rows.length,
  attachments: rows.map(toResponse),
});

export async function list(ctx: ServiceCtx, f: { unlinked?: boolean | null; kind?: string | null }) {
  return listOf(await q.listAttachments(getDb(ctx.env.DB), f));
}

export async function listForTx(ctx: ServiceCtx, txId: string): Promise<AttachmentListResponse> {
  const key = decodeTxId(txId);
  if (!key) throw notFound("Transaction");
  return listOf(await q.listForTx(getDb(ctx.env.DB), key));
}

/**
 * The stored bytes and the row (404 when either is gone). The type served is the one the bytes'
 * own header names (an accepted image or PDF), never the row's string: anything else is
 * `application/octet-stream`, which the route serves only as a download.
 */
export async function file(ctx: ServiceCtx, id: string) {
  const row = await loadAttachment(ctx, id);
  if (!isAttachmentKey(row.r2_key)) throw notFound("Attachment file");
  const obj = await ctx.env.FILES.get(row.r2_key);
  if (!obj) throw notFound("Attachment file");
  // At most 10 MB (the upload limit): read whole, so the type comes from the bytes that are sent.
  const bytes = new Uint8Array(await obj.arrayBuffer());
  const family = sniff(bytes);
  const contentType = family && family !== "heic" ? FAMILIES[family].contentType : "application/octet-stream";
  return { row, bytes, contentType };
}

/** Links an attachment to a transaction (or unlinks it, `txId` null): journaled, reversible. */
export async function link(ctx: ServiceCtx, { id, txId }: { id: string; txId: string | null }) {
  const before = await loadAttachment(ctx, id);
  const key = txId === null ? null : (await existingTx(ctx, { txId })).key;
  const now = ctx.clock().toISOString();
  const after: AttachmentRow = {
    ...before,
    tx_forwarded_to: key?.forwardedTo ?? null,
    tx_date_file_name: key?.dateFileName ?? null,
    updated_at: now,
  };
  const summary = `${txId ? "Linked" : "Unlinked"} ${after.original_filename}`;
  ctx.journal(entry(id, linkImage(before), linkImage(after), summary, true));
  await ctx.batch([q.setLinkQuery(getDb(ctx.env.DB), id, key, now)]);
  return after;
}

/**
 * Removes the row, and its R2 object unless another row (same bytes, other name) still uses it.
 * Only a key of the shape uploads make is ever deleted (a row from an old restore cannot name
 * another object).
 */
export async function remove(ctx: ServiceCtx, id: string) {
  const row = await loadAttachment(ctx, id);
  ctx.journal(entry(id, toResponse(row), null, `Deleted ${row.kind} ${row.original_filename}`));
  const db = getDb(ctx.env.DB);
  // Whether another row still uses the object is read in the delete's own batch.
  const [, others] = await ctx.batch([
    q.deleteAttachmentQuery(db, id),
    q.othersOnKeyQuery(db, row.r2_key, id),
  ]);
  if (isAttachmentKey(row.r2_key) && others.length === 0) await ctx.env.FILES.delete(row.r2_key);
  return row;
}

/** Reverter: the link's current image. */
export async function currentLink(ctx: ServiceCtx, id: string) {
  return linkImage(await q.getAttachment(getDb(ctx.env.DB), id));
}

/** Reverter: writes a link image back (the transaction must still exist). */
export async function restoreLink(
  ctx: ServiceCtx,
  { id, image }: { id: string; image: Record<string, unknown> | null },
) {
  await loadAttachment(ctx, id);
  const txId = typeof image?.tx_id === "string" ? image.tx_id : null;
  const key = txId ? (await existingTx(ctx, { txId, loc: ["before", "tx_id"] })).key : null;
  await ctx.batch([q.setLinkQuery(getDb(ctx.env.DB), id, key, ctx.clock().toISOString())]);
}
