/** Statement storage: drizzle over the statements tables, and the stored rows a statement can match. */
import type { Batch } from "../../lib/context";
import { and, asc, desc, eq, gte, inArray, lt, lte, ne, type SQL, sql } from "drizzle-orm";
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

/** A statement (null when absent), its rows by index and the results of `extra` reads: one D1 round trip. */
export async function statementAndRows(db: Db, id: string, extra: Statement[] = []) {
  return statementOf(await db.batch([...statementQueries(db, id), ...extra]));
}

/** The reads of a statement and its rows by index, for a caller's batch (`statementOf` its results). */
export const statementQueries = (db: Db, id: string) =>
  [
    db.select().from(s).where(eq(s.id, id)),
    db.select().from(r).where(eq(r.statement_id, id)).orderBy(asc(r.tx_index)),
  ] as const;

export function statementOf([stmts, rows, ...more]: readonly unknown[]) {
  return {
    stmt: (stmts as StatementRecord[])[0] ?? null,
    rows: rows as StatementRowRecord[],
    extra: more as unknown[],
  };
}

/**
 * A statement, its rows (by index) and their stored synthetic keys: one D1 round trip. `before`:
 * writes that run first in the same batch (a statement made from a request, inserted then read);
 * `run`: the caller's batch runner (one that also reads its settings).
 */
export async function readStatementWithRows(
  db: Db,
  id: string,
  before: readonly Statement[] = [],
  run: (stmts: Statement[]) => Promise<unknown[]> = async (stmts) =>
    (await db.batch(stmts as unknown as Parameters<typeof db.batch>[0])) as unknown as unknown[],
) {
  const all = await run([
    ...before,
    db.select().from(s).where(eq(s.id, id)),
    db.select().from(r).where(eq(r.statement_id, id)).orderBy(asc(r.tx_index)),
    db.select().from(k).where(eq(k.statement_id, id)),
    storedKeyImagesQuery(db, id),
  ]);
  const [stmts, rows, keys, images] = all.slice(before.length) as [
    StatementRecord[],
    StatementRowRecord[],
    { tx_index: number; date_file_name: string }[],
    Awaited<ReturnType<typeof storedKeyImagesQuery>>,
  ];
  return {
    stmt: (stmts[0] as StatementRecord | undefined) ?? null,
    rows: rows as StatementRowRecord[],
    keys: new Map(keys.map((x) => [x.tx_index, x.date_file_name])),
    /** The images of every transaction a stored key or a stored match of the statement names. */
    images,
  };
}

/**
 * The transactions whose DateFileName is one of the statement's stored synthetic keys or stored
 * matches (what an import compares against), read in the statement's own batch.
 */
const storedKeyImagesQuery = (db: Db, id: string) =>
  db
    .select({ fwd: t.ForwardedTo, dfn: t.DateFileName, ...txImageColumns })
    .from(t)
    .where(
      sql`${t.DateFileName} IN (SELECT ${k.date_file_name} FROM ${k} WHERE ${k.statement_id} = ${id}
        UNION SELECT ${r.db_date_file_name} FROM ${r} WHERE ${r.statement_id} = ${id} AND ${r.db_date_file_name} IS NOT NULL)`,
    );

/** Every statement, newest first, and every statement row: the list's ONE round trip. */
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
export const otherAccountRowsQuery = (db: Db, id: string, lo: string | SQL, hi: string | SQL) =>
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

export const txImageColumns = {
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

/**
 * A statement's guessed reconciliation windows, as SQL (ISO days): around its stored rows' dates
 * (the match window [min - matchBefore, max + matchAfter), the transfer window [min - transferDays,
 * max + transferDays]), or, with no rows, around its upload day ([day - daysBefore, day + daysAfter]
 * for both; `day`: a file being uploaded now, else the stored statement's upload day). Read before
 * the file is parsed; the parse's own windows are checked against the bounds (`guessBoundsQuery`).
 */
export interface GuessDays {
  matchBefore: number;
  matchAfter: number;
  transferDays: number;
  daysBefore: number;
  daysAfter: number;
}

type Bound = "mlo" | "mhi" | "tlo" | "thi";
const shiftSql = (d: number) => `${d >= 0 ? "+" : ""}${d} days`;

/** One bound, as an aggregate over the statement's rows (one row, even with none). */
function guessBound(id: string, g: GuessDays, which: Bound, day?: string) {
  const byRows = {
    mlo: sql`date(MIN(${r.date}), ${shiftSql(-g.matchBefore)})`,
    mhi: sql`date(MAX(${r.date}), ${shiftSql(g.matchAfter)})`,
    tlo: sql`date(MIN(${r.date}), ${shiftSql(-g.transferDays)})`,
    thi: sql`date(MAX(${r.date}), ${shiftSql(g.transferDays)})`,
  }[which];
  const by = shiftSql(which === "mlo" || which === "tlo" ? -g.daysBefore : g.daysAfter);
  const byUpload = day
    ? sql`date(${day}, ${by})`
    : sql`(SELECT date(substr(${s.uploaded_at}, 1, 10), ${by}) FROM ${s} WHERE ${s.id} = ${id})`;
  return sql`COALESCE(${byRows}, ${byUpload})`;
}

const boundOf = (id: string, g: GuessDays, which: Bound, day?: string) =>
  sql`(SELECT ${guessBound(id, g, which, day)} FROM ${r} WHERE ${r.statement_id} = ${id})`;

/** The bounds `guessWindowQueries` read over (null when the statement is gone). */
export const guessBoundsQuery = (db: Db, id: string, g: GuessDays, day?: string) =>
  db
    .select({
      mlo: sql<string | null>`${guessBound(id, g, "mlo", day)}`.as("mlo"),
      mhi: sql<string | null>`${guessBound(id, g, "mhi", day)}`.as("mhi"),
      tlo: sql<string | null>`${guessBound(id, g, "tlo", day)}`.as("tlo"),
      thi: sql<string | null>`${guessBound(id, g, "thi", day)}`.as("thi"),
    })
    .from(r)
    .where(eq(r.statement_id, id));

/** The stored rows and other statements' rows over a statement's guessed windows. */
export const guessWindowQueries = (db: Db, id: string, g: GuessDays, day?: string) =>
  [
    db
      .select(storedColumns)
      .from(t)
      .where(
        and(
          gte(t.DateFileName, sql`replace(${boundOf(id, g, "mlo", day)}, '-', '.')`),
          lt(t.DateFileName, sql`replace(${boundOf(id, g, "mhi", day)}, '-', '.')`),
        ),
      ),
    otherAccountRowsQuery(db, id, boundOf(id, g, "tlo", day), boundOf(id, g, "thi", day)),
  ] as const;
