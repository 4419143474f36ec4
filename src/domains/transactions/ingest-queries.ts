/**
 * Statements of the commit path (src/ingest): the dedup check and the insert, the context's
 * month-to-date reads and its write; and the statement import's inserts, patches and undo.
 * Builders only: the callers put them in their own batches.
 */
import { and, eq, isNull, sql } from "drizzle-orm";
import { type Db, inRange, live, spending, sumAmount } from "../../db";
import { transactions as t } from "../../db/schema";
import type { TxKey } from "../../lib/txid";

type Insert = typeof t.$inferInsert;

const byKey = (key: TxKey) => and(eq(t.ForwardedTo, key.forwardedTo), eq(t.DateFileName, key.dateFileName));

const byHash = (forwardedTo: string, hash: string) =>
  and(eq(t.ForwardedTo, forwardedTo), eq(t.TransactionHash, hash));

/** The stored twin's DateFileName of a hash (0 or 1 row). */
export const twinKeyQuery = (db: Db, forwardedTo: string, hash: string) =>
  db.select({ dfn: t.DateFileName }).from(t).where(byHash(forwardedTo, hash)).limit(1);

/** The row unless its hash exists under the same recipient (the UNIQUE index decides). */
export const insertUnlessHashed = (db: Db, row: Insert) =>
  db
    .insert(t)
    .values(row)
    .onConflictDoNothing({ target: [t.ForwardedTo, t.TransactionHash] });

interface ContextOf {
  UserId: string;
  DateFileName: string;
  Category: string;
  Company: string | null;
}

/** A category's live spending this month ("YYYY.MM." prefix of the row's DateFileName). */
const categoryMonthSpendQuery = (db: Db, tx: ContextOf) => {
  const month = tx.DateFileName.slice(0, 8);
  return db
    .select({ total: sumAmount() })
    .from(t)
    .where(
      and(
        eq(t.UserId, tx.UserId),
        inRange(month, `${month}~`),
        sql`${t.Category} = ${tx.Category} COLLATE NOCASE`,
        live(),
        spending(),
      ),
    );
};

/** A merchant's non-deleted rows this month. */
const merchantMonthVisitsQuery = (db: Db, tx: ContextOf) => {
  const month = tx.DateFileName.slice(0, 8);
  return db
    .select({ n: sql<number>`COUNT(*)`.mapWith(Number) })
    .from(t)
    .where(
      and(
        eq(t.UserId, tx.UserId),
        sql`${t.Company} = ${tx.Company ?? ""} COLLATE NOCASE`,
        inRange(month, `${month}~`),
        isNull(t.DeletedAt),
      ),
    );
};

/**
 * A new row's context saved in the insert's own batch, right after the insert, only when it inserted
 * (`changes() > 0`): the month's spend and visits are read in SQL (they see the row), the budget
 * target (cents, from the targets document, or null) is given. The snapshot has TransactionContext's
 * fields and order; the stored context is returned.
 */
export const newRowContextStatement = (
  db: Db,
  tx: ContextOf & { ForwardedTo: string },
  target: number | null,
) => {
  const total = sql`(${categoryMonthSpendQuery(db, tx)})`;
  const visits = tx.Company ? sql`(${merchantMonthVisitsQuery(db, tx)})` : sql`0`;
  const pct = target === null ? sql`NULL` : sql`round(CAST(${total} AS REAL) / ${target} * 1000) / 10.0`;
  const snapshot = sql`json_object('money', 'cents', 'category_month_total', ${total}, 'merchant_month_count', ${visits}, 'category_budget_target', ${target}, 'category_budget_pct', ${pct})`;
  const key = { forwardedTo: tx.ForwardedTo, dateFileName: tx.DateFileName };
  return db
    .update(t)
    .set({ TransactionContext: snapshot })
    .where(and(byKey(key), sql`changes() > 0`))
    .returning({ context: t.TransactionContext });
};

/** A new row, as is (the statement import's batch; its plan already ruled out duplicates). */
export const insertRowStatement = (db: Db, row: Insert) => db.insert(t).values(row);

/** Some columns of one row (the statement import's patches and its undo). */
export const patchRowStatement = (db: Db, key: TxKey, patch: Partial<Insert>) =>
  db.update(t).set(patch).where(byKey(key));

/** Removes one row outright (undoing the import that created it). */
export const removeRowStatement = (db: Db, key: TxKey) => db.delete(t).where(byKey(key));
