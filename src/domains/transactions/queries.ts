/** D1 queries for transactions (drizzle); no business rules. Month reads are DateFileName range scans. */
import { and, desc, eq, getTableColumns, inArray, isNotNull, isNull, type SQL, sql } from "drizzle-orm";
import { type Db, inRange } from "../../db";
import type { Statement } from "../../db/lists";
import { attentionQueue, transactions as t } from "../../db/schema";
import type { Batch } from "../../lib/context";
import { unfileAttachments } from "../attachments/queries";
import { categoryListed } from "../categories/queries";
import { attentionOn, clearAttentionRow, onQueue } from "./attention-queries";
import type { TxKey } from "../../lib/txid";
import { type Editable, LISTED, type ListedRow, type TxRow } from "./rules";
import { LISTED_ROW, rowsFromJson } from "./search-queries";

const isKey = (key: TxKey) => and(eq(t.ForwardedTo, key.forwardedTo), eq(t.DateFileName, key.dateFileName));

/** The listed columns (rules.ts LISTED) and the attention flag: what a list read selects. */
function listedColumns() {
  const all = getTableColumns(t);
  return {
    ...(Object.fromEntries(LISTED.map((k) => [k, all[k]])) as Pick<typeof all, (typeof LISTED)[number]>),
    needs_attention: onQueue().as("needs_attention"),
  };
}

/** Every column plus `needs_attention` (on the attention queue), for rows matching `where`. */
function selectWithAttention(db: Db, where: SQL | undefined) {
  return db
    .select({
      ...getTableColumns(t),
      needs_attention: onQueue().as("needs_attention"),
    })
    .from(t)
    .leftJoin(attentionQueue, attentionOn())
    .where(where)
    .$dynamic();
}

/** The listed columns of the rows matching `where`, with the attention flag (the journal's read). */
export const listedWithAttention = (db: Db, where: SQL | undefined) =>
  db.select(listedColumns()).from(t).leftJoin(attentionQueue, attentionOn()).where(where).$dynamic();

/** The chunked insert of whole rows, each skipped when its key exists (statements for a batch). */
export function insertRowsIfAbsent(db: Db, rows: (typeof t.$inferInsert)[]) {
  // D1 allows 100 bound values per statement, so rows go in small chunks.
  const perChunk = Math.max(1, Math.floor(90 / Math.max(1, Object.keys(rows[0] ?? {}).length)));
  const out = [];
  for (let i = 0; i < rows.length; i += perChunk)
    out.push(
      db
        .insert(t)
        .values(rows.slice(i, i + perChunk))
        .onConflictDoNothing(),
    );
  return out;
}

/**
 * Moves every transaction of `from` to `to`. Rows stored lowercased (email rows) stay
 * lowercased; rows stored with their display case get the display case.
 */
export const reassignTransactions = (db: Db, from: string, to: string) =>
  db
    .update(t)
    .set({ Category: sql`CASE WHEN ${t.Category} = lower(${t.Category}) THEN lower(${to}) ELSE ${to} END` })
    .where(sql`${t.Category} = ${from} COLLATE NOCASE`);

/** Flips un-ignored, non-deleted rows of these companies to Ignored (chunks under D1's bind limit). */
export function ignoreCompanies(db: Db, companies: string[]): Statement[] {
  const out: Statement[] = [];
  for (let i = 0; i < companies.length; i += 90) {
    out.push(
      db
        .update(t)
        .set({ Ignored: 1 })
        .where(
          and(
            isNull(t.DeletedAt),
            eq(t.Ignored, 0),
            inArray(sql`trim(${t.Company})`, companies.slice(i, i + 90)),
          ),
        ),
    );
  }
  return out;
}

type ListKind = "active" | "trash" | "attention";

/** Several month lists in one batch, in the order asked. */
export async function listMonths(
  db: Db,
  lists: { lo: string; hi: string; kind: ListKind }[],
): Promise<ListedRow[][]> {
  const [first, ...rest] = lists.map((l) => listMonthQuery(db, l.lo, l.hi, l.kind));
  if (!first) return [];
  const out = await db.batch([first, ...rest]);
  return out.map((packed) => rowsFromJson(packed));
}

/** A month's rows of one kind as ONE packed JSON text (unexecuted). */
function listMonthQuery(db: Db, lo: string, hi: string, kind: ListKind) {
  const state =
    kind === "trash"
      ? isNotNull(t.DeletedAt)
      : kind === "attention"
        ? and(isNull(t.DeletedAt), isNotNull(attentionQueue.DateFileName))
        : isNull(t.DeletedAt);
  // The month's rows as ONE JSON text (as the search hands its rows over): D1 passes one value
  // instead of ~800 rows × 17 cells, which is most of a month read's cost.
  const rows = db
    .select({ j: LISTED_ROW.row() })
    .from(t)
    .leftJoin(attentionQueue, attentionOn())
    .where(and(inRange(lo, hi), state))
    .orderBy(desc(t.DateFileName))
    .as("r");
  return LISTED_ROW.pack(db, rows);
}

export async function getRow(db: Db, key: TxKey): Promise<TxRow | null> {
  const [row] = await selectWithAttention(db, isKey(key)).limit(1);
  return row ?? null;
}

/** A row by key, its stored columns only (unexecuted: the bulk edit reads its rows in one batch). */
export const rowByKeyQuery = (db: Db, key: TxKey) => db.select().from(t).where(isKey(key)).limit(1);

/** Sets a row's category and audit, only while that category is listed (unexecuted: for a batch). */
export const setCategoryIfListedQuery = (
  db: Db,
  key: TxKey,
  category: string,
  audit: (typeof t.$inferInsert)["CategoryAudit"],
) =>
  db
    .update(t)
    .set({ Category: category, CategoryAudit: audit })
    .where(and(isKey(key), categoryListed(db, category)));

/**
 * Writes the editable columns and takes the row off the attention queue, in the caller's batch (with
 * the edit's ledger entry). With `category`, both happen only while that category is listed; returns
 * whether the row was written.
 */
export async function writeEditable(
  batch: Batch,
  db: Db,
  key: TxKey,
  cols: Editable,
  category?: string | null,
) {
  const guard = category ? categoryListed(db, category) : undefined;
  // The guarded UPDATE goes last: the edit's ledger entry is written only when it changed the row.
  const [, res] = await batch(
    [
      clearAttentionRow(db, key, guard),
      db
        .update(t)
        .set(cols)
        .where(and(isKey(key), guard)),
    ],
    { ifChanged: true },
  );
  return res.meta.changes > 0;
}

/**
 * Deleting the row for good, with what pointed at it (unexecuted): its attention-queue entry goes,
 * and its attachments become unfiled (kept, never lost; they can be linked again).
 */
export const deleteRowStatements = (db: Db, key: TxKey, nowIso: string) =>
  [db.delete(t).where(isKey(key)), clearAttentionRow(db, key), unfileAttachments(db, key, nowIso)] as const;

export async function latestCreated(db: Db, bounds: { lo: string; hi: string } | null) {
  const [row] = await db
    .select({ DateFileName: t.DateFileName, CreatedAt: t.CreatedAt })
    .from(t)
    .where(and(bounds ? inRange(bounds.lo, bounds.hi) : undefined, isNull(t.DeletedAt)))
    .orderBy(desc(t.DateFileName))
    .limit(1);
  return row ?? null;
}
