/** D1 queries of the activity ledger (activity_log, drizzle). No rules here. */
import { and, desc, eq, getTableColumns, gte, isNull, lt, type SQL, sql } from "drizzle-orm";
import type { Db } from "../../db";
import { activityLog } from "../../db/schema";

/** A stored entry (`seq` is the insertion order that breaks timestamp ties). */
export type ActivityRow = typeof activityLog.$inferSelect;
/** A new entry: every column but `seq`, which SQLite assigns. */
export type ActivityInsert = Omit<typeof activityLog.$inferInsert, "seq">;

export async function insertEntry(db: Db, r: ActivityInsert): Promise<void> {
  await db.insert(activityLog).values(r);
}

/** One insert per entry, to ride in a caller's `db.batch` (the images: drizzle's JSON mode). */
export const entryInserts = (db: Db, rows: readonly ActivityInsert[]) =>
  rows.map((r) => db.insert(activityLog).values(r));

const columns = getTableColumns(activityLog);
const names = Object.keys(columns) as (keyof typeof columns)[];

/**
 * Like `entryInserts`, but each entry is inserted only when the batch's previous statement changed
 * a row: `changes()` is the row count of the previous write (then of the entry before: a chain).
 * Values are encoded by their column (the images as JSON text), as `values()` would.
 */
export const entryInsertsIfChanged = (db: Db, rows: readonly ActivityInsert[]) =>
  rows.map((r) => {
    const values = names.map((c) => (c === "seq" ? sql`NULL` : sql.param(r[c] ?? null, columns[c])));
    return db.insert(activityLog).select(sql`SELECT ${sql.join(values, sql`, `)} WHERE changes() > 0`);
  });

interface ActivityFilter {
  limit: number;
  since?: string | null;
  operation?: string | null;
  principalId?: string | null;
  /** Non-token callers have no id: "me" narrows by kind among id-less entries. */
  principalKind?: string | null;
}

export function listEntries(db: Db, f: ActivityFilter): Promise<ActivityRow[]> {
  const a = activityLog;
  return db
    .select()
    .from(a)
    .where(
      and(
        f.since ? gte(a.ts, f.since) : undefined,
        f.operation ? eq(a.operation_id, f.operation) : undefined,
        f.principalId ? eq(a.principal_id, f.principalId) : undefined,
        f.principalKind ? and(eq(a.principal_kind, f.principalKind), isNull(a.principal_id)) : undefined,
      ),
    )
    .orderBy(desc(a.ts), desc(a.seq))
    .limit(f.limit);
}

export async function getEntry(db: Db, id: string): Promise<ActivityRow | null> {
  const [row] = await db.select().from(activityLog).where(eq(activityLog.id, id)).limit(1);
  return row ?? null;
}

/** Stamps the revert only if nobody did first: two concurrent reverts cannot both win. */
export async function claimRevert(db: Db, id: string, at: string, by: string): Promise<boolean> {
  const res = await db
    .update(activityLog)
    .set({ reverted_at: at, reverted_by: by })
    .where(and(eq(activityLog.id, id), isNull(activityLog.reverted_at)));
  return res.meta.changes > 0;
}

/**
 * A statement that fails its batch unless `cond` holds: the batch is one transaction, so nothing of
 * it is written. `json()` of text that is not JSON is an error, and the CASE evaluates it only when
 * `cond` fails; when it holds the statement inserts nothing (a SELECT alone cannot ride in a batch).
 */
const abortUnless = (db: Db, cond: SQL) => {
  const nulls = sql.join(
    names.map(() => sql`NULL`),
    sql`, `,
  );
  const check = sql`json(CASE WHEN ${cond} THEN '0' ELSE 'batch guard: condition failed' END)`;
  return db.insert(activityLog).select(sql`SELECT ${nulls} WHERE ${check} = 'never'`);
};

/**
 * `claimRevert` as statements for the restore's own batch: the stamp, then a guard that aborts the
 * batch unless the stamp is this revert's (an entry reverted first by another keeps its stamp).
 */
export const claimStatements = (db: Db, id: string, at: string, by: string) =>
  [
    db
      .update(activityLog)
      .set({ reverted_at: at, reverted_by: by })
      .where(and(eq(activityLog.id, id), isNull(activityLog.reverted_at))),
    abortUnless(
      db,
      sql`EXISTS (SELECT 1 FROM ${activityLog} WHERE ${activityLog.id} = ${id} AND ${activityLog.reverted_by} = ${by})`,
    ),
  ] as const;

/** Undoes a claim when restoring failed, so the entry can be reverted again. */
export async function releaseRevert(db: Db, id: string, by: string): Promise<void> {
  await db
    .update(activityLog)
    .set({ reverted_at: null, reverted_by: null })
    .where(and(eq(activityLog.id, id), eq(activityLog.reverted_by, by)));
}

export async function pruneBefore(db: Db, cutoffIso: string): Promise<number> {
  const res = await db.delete(activityLog).where(lt(activityLog.ts, cutoffIso));
  return res.meta.changes;
}
