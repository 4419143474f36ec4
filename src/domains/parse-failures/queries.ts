/** D1 reads and writes of the quarantine (no business rules). */
import { and, count, desc, eq, getTableColumns, gt, gte, inArray, lt, ne, or, sql } from "drizzle-orm";
import type { Db } from "../../db";
import { parseFailures as pf } from "../../db/schema";
import type { FailureRow } from "./rules";

/** How many alerts were quarantined since an instant (the health page; a query for a batch). */
export const failuresSinceQuery = (db: Db, sinceIso: string) =>
  db
    .select({ n: count() })
    .from(pf)
    .where(and(eq(pf.status, "quarantined"), gte(pf.created_at, sinceIso)));

/** One failure's stored detail (the quarantine's legacy-id check), for a caller's batch (rows: none or one). */
export const failureDetailQuery = (db: Db, id: string) =>
  db.select({ detail: pf.detail }).from(pf).where(eq(pf.id, id)).limit(1);

type FailureFields = Omit<typeof pf.$inferInsert, "id" | "status" | "created_at">;

/** Upsert: redelivery refreshes the stage and details but keeps created_at and a dismissed status. */
export const upsertFailure = (db: Db, id: string, fields: FailureFields, nowIso: string) =>
  db
    .insert(pf)
    .values({ id, status: "quarantined", created_at: nowIso, ...fields })
    .onConflictDoUpdate({
      target: pf.id,
      set: fields,
      setWhere: inArray(pf.status, ["quarantined", "retried"]),
    });

/** Newest first; the listing leaves the (large) body out. */
export async function listFailures(db: Db, status: string | null, limit: number): Promise<FailureRow[]> {
  return db
    .select({ ...getTableColumns(pf), body: sql<string | null>`NULL` })
    .from(pf)
    .where(status ? eq(pf.status, status) : ne(pf.status, "dismissed"))
    .orderBy(desc(pf.created_at), pf.id)
    .limit(Math.max(1, Math.min(limit, 10_000)));
}

/** D1 binds at most 100 values per statement: ids are asked for in chunks of this many. */
const IDS_PER_STATEMENT = 90;

/** Several failures by id, in one batch (the emails a sender's templates learned from). */
export async function getFailures(db: Db, ids: string[]): Promise<FailureRow[]> {
  const [first, ...rest] = Array.from({ length: Math.ceil(ids.length / IDS_PER_STATEMENT) }, (_, i) =>
    db
      .select()
      .from(pf)
      .where(inArray(pf.id, ids.slice(i * IDS_PER_STATEMENT, (i + 1) * IDS_PER_STATEMENT))),
  );
  if (!first) return [];
  return (await db.batch([first, ...rest])).flat();
}

/** Where a stepped retry-all stopped: the last row it read (the backlog's order: newest first, then id). */
export type BacklogAfter = { created_at: string; id: string } | null;

/** The quarantined backlog with bodies, newest first (retry-all; as listFailures orders it). */
export const backlogQuery = (db: Db, limit: number, after: BacklogAfter) =>
  db
    .select()
    .from(pf)
    .where(
      and(
        eq(pf.status, "quarantined"),
        after
          ? or(
              lt(pf.created_at, after.created_at),
              and(eq(pf.created_at, after.created_at), gt(pf.id, after.id)),
            )
          : undefined,
      ),
    )
    .orderBy(desc(pf.created_at), pf.id)
    .limit(limit);

export async function getFailure(db: Db, id: string): Promise<FailureRow | null> {
  return (await db.select().from(pf).where(eq(pf.id, id)).get()) ?? null;
}

/** Sets the status; the resolved key and the stage change only when given (a statement for a batch). */
export const statusUpdate = (
  db: Db,
  id: string,
  status: string,
  nowIso: string,
  fields: { resolvedTx?: string | null; stage?: string } = {},
) =>
  db
    .update(pf)
    .set({
      status,
      updated_at: nowIso,
      ...(fields.resolvedTx ? { resolved_tx: fields.resolvedTx } : {}),
      ...(fields.stage ? { failure_stage: fields.stage } : {}),
    })
    .where(eq(pf.id, id));

/**
 * Marks a failure resolved or recovered by the row just inserted: for the insert's own batch, right
 * after it, changing the failure only when the insert did (`changes() > 0`).
 */
export const settledByInsert = (
  db: Db,
  id: string,
  status: "resolved" | "recovered",
  { dateFileName, nowIso }: { dateFileName: string; nowIso: string },
) =>
  db
    .update(pf)
    .set({ status, updated_at: nowIso, resolved_tx: dateFileName })
    .where(and(eq(pf.id, id), sql`changes() > 0`));

/** Undo of a resolve: the failure back to its earlier status, no resolved row (a statement for a batch). */
export const unresolveQuery = (db: Db, id: string, status: string, nowIso: string) =>
  db
    .update(pf)
    .set({ status, updated_at: nowIso, resolved_tx: null })
    .where(and(eq(pf.id, id), eq(pf.status, "resolved")));
