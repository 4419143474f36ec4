/** Statement storage: drizzle over the statements tables, and the stored rows a statement can match. */
import type { Batch } from "../../lib/context";
import { and, asc, desc, eq, gte, inArray, lt, lte, ne, sql } from "drizzle-orm";
import { type Db, schema } from "../../db";
import type { Statement } from "../../db/lists";
import type { StatementRecord, StatementRowInsert, StatementRowRecord } from "../../db/schema";
import type { StoredTx } from "./rules";

const s = schema.statements;
const r = schema.statementRows;
const t = schema.transactions;
const k = schema.statementRowKeys;

/** A review row and the synthetic key (DateFileName) its import will write, fixed at upload. */
export type RowWithKey = StatementRowInsert & { synthetic_key?: string };

/** One insert per row and one per key (D1 binds at most 100 parameters per statement). */
const rowInserts = (db: Db, rows: readonly RowWithKey[]) =>
  rows.flatMap(({ synthetic_key, ...row }) => [
    db.insert(r).values(row),
    ...(synthetic_key
      ? [
          db.insert(k).values({
            statement_id: row.statement_id,
            tx_index: row.tx_index,
            date_file_name: synthetic_key,
          }),
        ]
      : []),
  ]);

/** The inserts of a statement, its rows and their keys (one batch: the caller's, with its entry). */
export const insertStatementQueries = (db: Db, stmt: StatementRecord, rows: RowWithKey[]) =>
  [db.insert(s).values(stmt), ...rowInserts(db, rows)] as const;

/** Replaces a statement's rows (reparse) and its header fields: statements for one batch. */
export const replaceRowsQueries = (db: Db, id: string, patch: Partial<StatementRecord>, rows: RowWithKey[]) =>
  [
    db.update(s).set(patch).where(eq(s.id, id)),
    db.delete(r).where(eq(r.statement_id, id)),
    db.delete(k).where(eq(k.statement_id, id)),
    ...rowInserts(db, rows),
  ] as const;

export const getStatement = (db: Db, id: string) => db.select().from(s).where(eq(s.id, id)).get();

/**
 * A statement (null when absent), its rows (by index) and their stored synthetic keys. `before`:
 * writes that run first in the same batch (a statement made from a request, inserted then read).
 */
export async function readStatementWithRows(db: Db, id: string, before: readonly Statement[] = []) {
  const all = (await db.batch([
    ...before,
    db.select().from(s).where(eq(s.id, id)),
    db.select().from(r).where(eq(r.statement_id, id)).orderBy(asc(r.tx_index)),
    db.select().from(k).where(eq(k.statement_id, id)),
  ] as unknown as Parameters<typeof db.batch>[0])) as unknown as unknown[];
  const [stmts, rows, keys] = all.slice(before.length) as [
    StatementRecord[],
    StatementRowRecord[],
    { tx_index: number; date_file_name: string }[],
  ];
  return {
    stmt: stmts[0] ?? null,
    rows,
    keys: new Map(keys.map((x) => [x.tx_index, x.date_file_name])),
  };
}

/** Every statement, newest first, and every statement row. */
export const statementsAndRows = (db: Db) =>
  db.batch([db.select().from(s).orderBy(desc(s.uploaded_at), desc(s.id)), db.select().from(r)]);

export function updateRowQuery(db: Db, id: string, txIndex: number, patch: Partial<StatementRowRecord>) {
  return db
    .update(r)
    .set(patch)
    .where(and(eq(r.statement_id, id), eq(r.tx_index, txIndex)));
}

export const setStatementQuery = (db: Db, id: string, patch: Partial<StatementRecord>) =>
  db.update(s).set(patch).where(eq(s.id, id));

/**
 * `batch`: the caller's ServiceCtx.batch, which carries the delete's ledger entry. Returns how
 * many statements still keep the file `r2Key` after the delete (read in the same batch).
 */
export async function deleteStatementRows(db: Db, id: string, r2Key: string, batch: Batch): Promise<number> {
  const [, , , keeping] = await batch([
    db.delete(r).where(eq(r.statement_id, id)),
    db.delete(k).where(eq(k.statement_id, id)),
    db.delete(s).where(eq(s.id, id)),
    db.select({ n: sql<number>`COUNT(*)` }).from(s).where(eq(s.r2_key, r2Key)),
  ]);
  return Number(keeping[0]?.n ?? 0);
}

const storedColumns = {
  ForwardedTo: t.ForwardedTo,
  DateFileName: t.DateFileName,
  Amount: t.Amount,
  Company: t.Company,
  Category: t.Category,
  TransactionType: t.TransactionType,
  categorySource: sql<string | null>`json_extract(${t.CategoryAudit}, '$.source')`,
  deleted: sql<number>`${t.DeletedAt} IS NOT NULL`,
};

/**
 * Stored rows dated in [lo, hi) (ISO days), on idx_transactions_month, for a caller's batch. Deleted
 * rows come back flagged: they still hold their keys (a trashed import is not offered again).
 */
export const storedInWindowQuery = (db: Db, lo: string, hi: string) => {
  const dots = (iso: string) => iso.replaceAll("-", ".");
  return db
    .select(storedColumns)
    .from(t)
    .where(and(gte(t.DateFileName, dots(lo)), lt(t.DateFileName, dots(hi))));
};

/** storedInWindowQuery's rows with `deleted` as a boolean. */
export const withDeleted = (rows: Awaited<ReturnType<typeof storedInWindowQuery>>) =>
  rows.map((x): StoredTx & { deleted: boolean } => ({ ...x, deleted: Boolean(x.deleted) }));

/**
 * Rows of other statements dated in [lo, hi] (ISO days), with their statement's account: transfer
 * twins. A query for a caller's batch.
 */
export const otherAccountRowsQuery = (db: Db, id: string, lo: string, hi: string) =>
  db
    .select({
      date: r.date,
      amount: r.amount,
      type: r.type,
      institution: s.institution,
      account_type: s.account_type,
    })
    .from(r)
    .innerJoin(s, eq(s.id, r.statement_id))
    .where(and(gte(r.date, lo), lte(r.date, hi), ne(r.statement_id, id)));

const txImageColumns = {
  Amount: t.Amount,
  Company: t.Company,
  Category: t.Category,
  CategoryAudit: t.CategoryAudit,
  StatementSource: t.StatementSource,
};

/**
 * The image reads of transactions by DateFileName, 90 keys a statement (D1 binds at most 100
 * parameters): meant for one `db.batch`, alone or after the writes they must see.
 */
export const txImageQueries = (db: Db, dateFileNames: string[]) => {
  const dfns = [...new Set(dateFileNames)];
  const out = [];
  for (let i = 0; i < dfns.length; i += 90) {
    out.push(
      db
        .select({ fwd: t.ForwardedTo, dfn: t.DateFileName, ...txImageColumns })
        .from(t)
        .where(inArray(t.DateFileName, dfns.slice(i, i + 90))),
    );
  }
  return out;
};

/**
 * Statement rows per institution and direction, and how many an alert email had already caught:
 * the rule of a statement's own `capture` figure (reconciled as matched, ambiguous or a suspected
 * duplicate against a row an alert email delivered; never one of `notAlertRecipients`: hand-added or
 * statement-imported rows),
 * summed over every statement, so the two always agree. Rows another statement imported before
 * (`previously_imported`) are that statement's to count, not counted twice.
 */
export function captureRows(db: Db, notAlertRecipients: readonly string[]) {
  const caught = sql<number>`SUM(CASE WHEN ${r.reconcile_tier} IN ('matched', 'ambiguous', 'suspected_duplicate')
    AND ${r.db_forwarded_to} IS NOT NULL
    AND ${r.db_forwarded_to} NOT IN (${sql.join(
      notAlertRecipients.map((v) => sql`${v}`),
      sql`, `,
    )}) THEN 1 ELSE 0 END)`;
  return db
    .select({
      institution: s.institution,
      dir: r.type,
      caught,
      total: sql<number>`COUNT(*)`,
    })
    .from(r)
    .innerJoin(s, eq(s.id, r.statement_id))
    .where(ne(r.reconcile_tier, "previously_imported"))
    .groupBy(s.institution, r.type);
}
