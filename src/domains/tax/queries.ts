/** Tax pack queries: the year's spending rows, their receipt counts, overrides, the personal mapping. */
import { and, asc, eq, gte, lt } from "drizzle-orm";
import { type Db, inRange, live, spending } from "../../db";
import { taxMapping, taxOverrides as o, transactions as t } from "../../db/schema";
import type { TxKey } from "../../lib/txid";
import type { TaxMappingDoc } from "./mapping";

export { yearReceipts } from "../attachments/queries";

/** Live spending rows of [lo, hi) with what evidence needs (the body is read by the export only). */
export function yearRows(db: Db, lo: string, hi: string) {
  return db
    .select({
      forwardedTo: t.ForwardedTo,
      dateFileName: t.DateFileName,
      amount: t.Amount,
      company: t.Company,
      category: t.Category,
      statementSource: t.StatementSource,
      fileName: t.FileName,
    })
    .from(t)
    .where(and(live(), spending(), inRange(lo, hi)))
    .orderBy(asc(t.DateFileName));
}

export function yearOverrides(db: Db, lo: string, hi: string) {
  return db
    .select()
    .from(o)
    .where(and(gte(o.tx_date_file_name, lo), lt(o.tx_date_file_name, hi)));
}

export async function getOverride(db: Db, k: TxKey) {
  const [row] = await db
    .select()
    .from(o)
    .where(and(eq(o.tx_forwarded_to, k.forwardedTo), eq(o.tx_date_file_name, k.dateFileName)));
  return row ?? null;
}

export function upsertOverride(db: Db, k: TxKey, mode: string, lineKey: string | null, now: string) {
  return db
    .insert(o)
    .values({
      tx_forwarded_to: k.forwardedTo,
      tx_date_file_name: k.dateFileName,
      mode,
      line_key: lineKey,
      created_at: now,
      updated_at: now,
    })
    .onConflictDoUpdate({
      target: [o.tx_forwarded_to, o.tx_date_file_name],
      set: { mode, line_key: lineKey, updated_at: now },
    });
}

export function deleteOverride(db: Db, k: TxKey) {
  return db
    .delete(o)
    .where(and(eq(o.tx_forwarded_to, k.forwardedTo), eq(o.tx_date_file_name, k.dateFileName)));
}

/** The fields an override checks of its transaction. */
export const txQuery = (db: Db, k: TxKey) =>
  db
    .select({ type: t.TransactionType, deletedAt: t.DeletedAt, category: t.Category, dfn: t.DateFileName })
    .from(t)
    .where(and(eq(t.ForwardedTo, k.forwardedTo), eq(t.DateFileName, k.dateFileName)));

/** The source alert's body (the export writes it as text for email-evidence rows). */
export async function txBody(db: Db, k: TxKey) {
  const [row] = await db
    .select({ subject: t.Subject, body: t.Body, from: t.FromEmail, date: t.Date })
    .from(t)
    .where(and(eq(t.ForwardedTo, k.forwardedTo), eq(t.DateFileName, k.dateFileName)));
  return row ?? null;
}

const MAPPING_ID = "personal";

/** The personal mapping's row (unexecuted: for a read batch); `readMapping` runs it. */
export const mappingQuery = (db: Db) =>
  db.select({ data: taxMapping.data }).from(taxMapping).where(eq(taxMapping.id, MAPPING_ID));

export async function readMapping(db: Db): Promise<unknown | null> {
  const [row] = await mappingQuery(db);
  // Checked by the caller with parseMapping (the mapping's own validator, every problem named).
  return row ? row.data : null;
}

export function writeMapping(db: Db, data: TaxMappingDoc, now: string) {
  return db
    .insert(taxMapping)
    .values({ id: MAPPING_ID, data, updated_at: now })
    .onConflictDoUpdate({ target: taxMapping.id, set: { data, updated_at: now } });
}

export const clearMapping = (db: Db) => db.delete(taxMapping).where(eq(taxMapping.id, MAPPING_ID));
