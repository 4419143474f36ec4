/** D1 queries for transactions (drizzle); no business rules. Month reads are DateFileName range scans. */
import {
  and,
  desc,
  eq,
  exists,
  getTableColumns,
  isNotNull,
  isNull,
  notExists,
  or,
  type SQL,
  sql,
} from "drizzle-orm";
import { type Db, getDb, inRange } from "../../db";
import { attachments, attentionQueue, categories, transactions as t } from "../../db/schema";
import type { TxKey } from "../../lib/txid";
import { type Editable, LISTED, type ListedRow, type TxRow } from "./rules";
import { LISTED_ROW, rowsFromJson } from "./search-queries";

const isKey = (key: TxKey) => and(eq(t.ForwardedTo, key.forwardedTo), eq(t.DateFileName, key.dateFileName));
const attentionKey = (key: TxKey) =>
  and(eq(attentionQueue.ForwardedTo, key.forwardedTo), eq(attentionQueue.DateFileName, key.dateFileName));

/** Every column plus `needs_attention` (on the attention queue), for rows matching `where`. */
/** The listed columns (rules.ts LISTED) and the attention flag: what a list read selects. */
export function listedColumns() {
  const all = getTableColumns(t);
  return {
    ...(Object.fromEntries(LISTED.map((k) => [k, all[k]])) as Pick<typeof all, (typeof LISTED)[number]>),
    needs_attention: sql<number>`(${attentionQueue.DateFileName} IS NOT NULL)`.as("needs_attention"),
  };
}

export function selectWithAttention(d1: D1Database, where: SQL | undefined) {
  return getDb(d1)
    .select({
      ...getTableColumns(t),
      needs_attention: sql<number>`(${attentionQueue.DateFileName} IS NOT NULL)`.as("needs_attention"),
    })
    .from(t)
    .leftJoin(
      attentionQueue,
      and(eq(attentionQueue.ForwardedTo, t.ForwardedTo), eq(attentionQueue.DateFileName, t.DateFileName)),
    )
    .where(where)
    .$dynamic();
}

export async function listMonth(
  d1: D1Database,
  lo: string,
  hi: string,
  kind: "active" | "trash" | "attention",
): Promise<ListedRow[]> {
  const state =
    kind === "trash"
      ? isNotNull(t.DeletedAt)
      : kind === "attention"
        ? and(isNull(t.DeletedAt), isNotNull(attentionQueue.DateFileName))
        : isNull(t.DeletedAt);
  // The month's rows as ONE JSON text (as the search hands its rows over): D1 passes one value
  // instead of ~800 rows × 17 cells, which is most of a month read's cost.
  const db = getDb(d1);
  const rows = db
    .select({ j: LISTED_ROW.row() })
    .from(t)
    .leftJoin(
      attentionQueue,
      and(eq(attentionQueue.ForwardedTo, t.ForwardedTo), eq(attentionQueue.DateFileName, t.DateFileName)),
    )
    .where(and(inRange(lo, hi), state))
    .orderBy(desc(t.DateFileName))
    .as("r");
  const [packed] = await LISTED_ROW.pack(db, rows);
  return rowsFromJson(packed?.json);
}

export async function getRow(d1: D1Database, key: TxKey): Promise<TxRow | null> {
  const [row] = await selectWithAttention(d1, isKey(key)).limit(1);
  return row ?? null;
}

/**
 * True while `name` is a listed category: a stored row (NOCASE), or any name while no list is
 * stored and the defaults are in effect (the caller validated it against them). Checked inside
 * the write itself, so a rename or delete landing between validation and write cannot leave the
 * row in a category that no longer exists.
 */
export const categoryListed = (db: Db, name: string) =>
  or(
    exists(db.select({ one: sql`1` }).from(categories).where(eq(categories.name, name))),
    notExists(db.select({ one: sql`1` }).from(categories)),
  );

/**
 * Writes the editable columns and takes the row off the attention queue, in one batch. With
 * `category`, both happen only while that category is listed; returns whether the row was written.
 */
export async function writeEditable(d1: D1Database, key: TxKey, cols: Editable, category?: string | null) {
  const db = getDb(d1);
  const guard = category ? categoryListed(db, category) : undefined;
  const [res] = await db.batch([
    db
      .update(t)
      .set(cols)
      .where(and(isKey(key), guard)),
    db.delete(attentionQueue).where(and(attentionKey(key), guard)),
  ]);
  return res.meta.changes > 0;
}

/**
 * Deletes the row for good, in one batch with what pointed at it: its attention-queue entry goes,
 * and its attachments become unfiled (kept, never lost; they can be linked again).
 */
export async function deleteRow(d1: D1Database, key: TxKey, nowIso: string) {
  const db = getDb(d1);
  await db.batch([
    db.delete(t).where(isKey(key)),
    db.delete(attentionQueue).where(attentionKey(key)),
    db
      .update(attachments)
      .set({ tx_forwarded_to: null, tx_date_file_name: null, updated_at: nowIso })
      .where(
        and(
          eq(attachments.tx_forwarded_to, key.forwardedTo),
          eq(attachments.tx_date_file_name, key.dateFileName),
        ),
      ),
  ]);
}

export async function latestCreated(d1: D1Database, bounds: { lo: string; hi: string } | null) {
  const [row] = await getDb(d1)
    .select({ DateFileName: t.DateFileName, CreatedAt: t.CreatedAt })
    .from(t)
    .where(and(bounds ? inRange(bounds.lo, bounds.hi) : undefined, isNull(t.DeletedAt)))
    .orderBy(desc(t.DateFileName))
    .limit(1);
  return row ?? null;
}
