/** D1 queries of attachments (drizzle). No rules here. */
import { and, asc, desc, eq, gte, isNotNull, isNull, lt, ne, type SQL } from "drizzle-orm";
import { type Db, live, spending } from "../../db";
import { type AttachmentRow, attachments, transactions } from "../../db/schema";
import type { TxKey } from "../../lib/txid";
import type { StoredReceipt } from "./stored";

const a = attachments;
const t = transactions;

export async function getAttachment(db: Db, id: string): Promise<AttachmentRow | null> {
  const [row] = await db.select().from(a).where(eq(a.id, id)).limit(1);
  return row ?? null;
}

export function listAttachments(db: Db, f: { unlinked?: boolean | null; kind?: string | null }) {
  return db
    .select()
    .from(a)
    .where(
      and(
        f.unlinked === true ? isNull(a.tx_date_file_name) : undefined,
        f.unlinked === false ? isNotNull(a.tx_date_file_name) : undefined,
        f.kind ? eq(a.kind, f.kind) : undefined,
      ),
    )
    .orderBy(desc(a.created_at), a.id);
}

export function listForTx(db: Db, key: TxKey) {
  return db
    .select()
    .from(a)
    .where(and(eq(a.tx_forwarded_to, key.forwardedTo), eq(a.tx_date_file_name, key.dateFileName)))
    .orderBy(a.created_at, a.id);
}

/**
 * Insert, or (same id: the same file under the same name) refresh the existing row: a statement
 * for the upload's batch, which also carries its ledger entry.
 */
export function upsertAttachmentQuery(db: Db, row: AttachmentRow) {
  return db
    .insert(a)
    .values(row)
    .onConflictDoUpdate({
      target: a.id,
      set: {
        kind: row.kind,
        tx_forwarded_to: row.tx_forwarded_to,
        tx_date_file_name: row.tx_date_file_name,
        updated_at: row.updated_at,
      },
    });
}

const linkSet = (key: TxKey | null, nowIso: string) => ({
  tx_forwarded_to: key?.forwardedTo ?? null,
  tx_date_file_name: key?.dateFileName ?? null,
  updated_at: nowIso,
});

export const setLinkQuery = (db: Db, id: string, key: TxKey | null, nowIso: string) =>
  db.update(a).set(linkSet(key, nowIso)).where(eq(a.id, id));

/** The auto-link of a candidates request: it lands only while the attachment is still unfiled. */
export const autoLinkQuery = (db: Db, id: string, key: TxKey, nowIso: string) =>
  db
    .update(a)
    .set(linkSet(key, nowIso))
    .where(and(eq(a.id, id), isNull(a.tx_date_file_name)));

/** A parse's outcome (awaited, or one of the caller's batch: the parse's entry rides with it). */
export function setParse(
  db: Db,
  id: string,
  v: { status: string; error: string | null; json: StoredReceipt | null; nowIso: string },
) {
  return db
    .update(a)
    .set({ parse_status: v.status, parse_error: v.error, parse_json: v.json, updated_at: v.nowIso })
    .where(eq(a.id, id));
}

export const deleteAttachmentQuery = (db: Db, id: string) => db.delete(a).where(eq(a.id, id));

/** Other rows sharing an R2 object (the same bytes uploaded under another name). */
/** Unexecuted: it rides after the delete in the delete's batch; rows: 0 or 1. */
export const othersOnKeyQuery = (db: Db, r2Key: string, id: string) =>
  db
    .select({ id: a.id })
    .from(a)
    .where(and(eq(a.r2_key, r2Key), ne(a.id, id)))
    .limit(1);

export async function getTx(db: Db, key: TxKey) {
  const [row] = await db
    .select()
    .from(t)
    .where(and(eq(t.ForwardedTo, key.forwardedTo), eq(t.DateFileName, key.dateFileName)))
    .limit(1);
  return row ?? null;
}

/** Live spending rows with DateFileName in [lo, hi) (bounds: values or SQL). */
export function spendingInRange(db: Db, lo: string | SQL, hi: string | SQL) {
  return db
    .select({
      ForwardedTo: t.ForwardedTo,
      DateFileName: t.DateFileName,
      Amount: t.Amount,
      Company: t.Company,
      Category: t.Category,
    })
    .from(t)
    .where(and(live(), spending(), gte(t.DateFileName, lo), lt(t.DateFileName, hi)));
}

/** The transactions other receipts are linked to in [lo, hi) (bounds: values or SQL). */
export function receiptedInRange(db: Db, lo: string | SQL, hi: string | SQL, exceptId: string) {
  return db
    .select({ ForwardedTo: a.tx_forwarded_to, DateFileName: a.tx_date_file_name })
    .from(a)
    .where(
      and(
        eq(a.kind, "receipt"),
        ne(a.id, exceptId),
        gte(a.tx_date_file_name, lo),
        lt(a.tx_date_file_name, hi),
      ),
    );
}

/** Receipt-kind attachments linked to rows of [lo, hi). */
export function yearReceipts(db: Db, lo: string, hi: string) {
  return db
    .select({
      id: a.id,
      forwardedTo: a.tx_forwarded_to,
      dateFileName: a.tx_date_file_name,
      r2Key: a.r2_key,
      contentType: a.content_type,
      size: a.size_bytes,
    })
    .from(a)
    .where(
      and(
        eq(a.kind, "receipt"),
        isNotNull(a.tx_forwarded_to),
        gte(a.tx_date_file_name, lo),
        lt(a.tx_date_file_name, hi),
      ),
    )
    .orderBy(asc(a.tx_date_file_name), asc(a.id));
}

/** A deleted row's attachments become unfiled (kept, never lost): a statement for the delete's batch. */
export const unfileAttachments = (db: Db, key: TxKey, nowIso: string) =>
  db
    .update(attachments)
    .set({ tx_forwarded_to: null, tx_date_file_name: null, updated_at: nowIso })
    .where(
      and(
        eq(attachments.tx_forwarded_to, key.forwardedTo),
        eq(attachments.tx_date_file_name, key.dateFileName),
      ),
    );
