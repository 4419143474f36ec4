/** Queries of browser sessions and the wrong-password throttle. No rules here. */
import {
  and,
  asc,
  eq,
  gt,
  inArray,
  isNotNull,
  isNull,
  lt as before,
  lte,
  ne,
  notExists,
  or,
  type SQL,
  sql,
} from "drizzle-orm";
import type { Db } from "../../db";
import { loginThrottle, sessions } from "../../db/schema";

const s = sessions;
const lt = loginThrottle;

export type SessionRow = typeof s.$inferSelect;
export type LiveSession = Pick<SessionRow, "id" | "last_seen_at">;

/** Not ended and not expired at `nowIso`. */
const live = (nowIso: string) => and(isNull(s.ended_at), gt(s.expires_at, nowIso));

/** A new session's row (unexecuted: a batch or an await runs it). */
export const insertSessionQuery = (db: Db, row: SessionRow) => db.insert(s).values(row);

/** `insertSessionQuery` only when `onlyIf` holds (a condition an earlier write of the batch set). */
export const insertSessionIfQuery = (db: Db, row: SessionRow, onlyIf: SQL) =>
  db
    .insert(s)
    .select(
      sql`SELECT ${row.id}, ${row.created_at}, ${row.last_seen_at}, ${row.user_agent}, ${row.ip}, ${row.ended_at}, ${row.expires_at} WHERE ${onlyIf}`,
    );

export async function findLiveSession(db: Db, id: string, nowIso: string): Promise<LiveSession | null> {
  const [row] = await liveSessionsQuery(db, [id], nowIso);
  return row ?? null;
}

/** The live rows among `ids` (unexecuted: the auth middleware runs it inside its one batch). */
export function liveSessionsQuery(db: Db, ids: string[], nowIso: string) {
  return db
    .select({ id: s.id, last_seen_at: s.last_seen_at })
    .from(s)
    .where(and(inArray(s.id, ids), live(nowIso)));
}

export const listLiveSessions = (db: Db, nowIso: string) =>
  db.select().from(s).where(live(nowIso)).orderBy(asc(s.created_at), asc(s.id));

/** Ends one live session; whether it was live. */
export const endSessionQuery = (db: Db, id: string, nowIso: string) =>
  db
    .update(s)
    .set({ ended_at: nowIso })
    .where(and(eq(s.id, id), live(nowIso)));

/** Ends every live session except `keepId` (null: all), in a batch; `onlyIf`: a condition an earlier write of that batch set. */
export function endAllSessionsQuery(
  db: Db,
  nowIso: string,
  { keepId = null, onlyIf }: { keepId?: string | null; onlyIf?: SQL } = {},
) {
  const others = keepId ? ne(s.id, keepId) : undefined;
  return db
    .update(s)
    .set({ ended_at: nowIso })
    .where(and(live(nowIso), others, onlyIf));
}

/** Conditional stamp: concurrent requests still write at most once per throttle window. */
export async function stampSessionSeen(db: Db, id: string, nowIso: string, staleBeforeIso: string) {
  await db
    .update(s)
    .set({ last_seen_at: nowIso })
    .where(and(eq(s.id, id), or(isNull(s.last_seen_at), lte(s.last_seen_at, staleBeforeIso))));
}

interface ThrottleLimits {
  freeFailures: number;
  globalFreeFailures: number;
  globalKey: string;
  baseS: number;
  maxS: number;
}

/**
 * Reserves one password attempt in every bucket of `keys` at once, BEFORE the hash is checked:
 * one guarded UPDATE counts the attempt in all of them only when none is locked, and locks a
 * bucket in the same statement when this attempt is past its free ones (the lock grows as
 * base·2^(n−free−1), capped). D1 runs a batch as one transaction, so however many attempts arrive
 * together, each bucket lets through at most its free attempts plus one per window.
 * Unexecuted: [the buckets' rows ensured, the reservation RETURNING the buckets' rows after it
 * ([] when refused)]; `onlyIf`: both write only when it holds (evaluated in their batch).
 */
export function reserveAttemptQueries(
  db: Db,
  keys: string[],
  nowIso: string,
  l: ThrottleLimits,
  onlyIf?: SQL,
) {
  const free = sql`(CASE WHEN ${lt.key} = ${l.globalKey} THEN ${l.globalFreeFailures} ELSE ${l.freeFailures} END)`;
  const over = sql`(${lt.failures} + 1 - ${free})`;
  const lockS = sql`MIN(${l.maxS}, ${l.baseS} * (1 << MIN(${over} - 1, 20)))`;
  const lockedAny = db
    .select({ one: sql`1` })
    .from(lt)
    .where(and(inArray(lt.key, keys), gt(lt.locked_until, nowIso)));
  const rows = sql.join(
    keys.map((key) => sql`SELECT ${key}, 0, NULL, ${nowIso}`),
    sql` UNION ALL `,
  );
  const ensure = onlyIf
    ? db.insert(lt).select(sql`SELECT * FROM (${rows}) WHERE ${onlyIf}`).onConflictDoNothing()
    : db
        .insert(lt)
        .values(keys.map((key) => ({ key, updated_at: nowIso })))
        .onConflictDoNothing();
  const reserve = db
    .update(lt)
    .set({
      failures: sql`${lt.failures} + 1`,
      locked_until: sql`CASE WHEN ${over} > 0 THEN strftime('%Y-%m-%dT%H:%M:%fZ', ${nowIso}, '+' || ${lockS} || ' seconds') ELSE ${lt.locked_until} END`,
      updated_at: nowIso,
    })
    .where(and(inArray(lt.key, keys), notExists(lockedAny), onlyIf))
    .returning({ key: lt.key, failures: lt.failures, locked_until: lt.locked_until });
  return [ensure, reserve] as const;
}

/** `reserveAttemptQueries` run alone: the buckets' rows after the reservation, or [] when refused. */
export async function reserveAttempt(db: Db, keys: string[], nowIso: string, l: ThrottleLimits) {
  const [, reserved] = await db.batch(reserveAttemptQueries(db, keys, nowIso, l));
  return reserved;
}

export function readBuckets(db: Db, keys: string[]) {
  return db
    .select({ key: lt.key, failures: lt.failures, locked_until: lt.locked_until })
    .from(lt)
    .where(inArray(lt.key, keys));
}

/** A correct password: the buckets start over (unexecuted: the success's batch runs it). */
export const clearBucketsQuery = (db: Db, keys: string[], nowIso: string) =>
  db.update(lt).set({ failures: 0, locked_until: null, updated_at: nowIso }).where(inArray(lt.key, keys));

/**
 * The daily prune (unexecuted: run together in one batch): sessions ended or expired before
 * `monthAgo`, and address buckets untouched since `dayAgo` with no lock in force at `nowIso`
 * (the global bucket is kept).
 */
export function pruneQueries(db: Db, monthAgo: string, dayAgo: string, nowIso: string) {
  return [
    db
      .delete(s)
      .where(or(and(isNotNull(s.ended_at), before(s.ended_at, monthAgo)), before(s.expires_at, monthAgo))),
    db
      .delete(lt)
      .where(
        and(
          ne(lt.key, "global"),
          before(lt.updated_at, dayAgo),
          or(isNull(lt.locked_until), before(lt.locked_until, nowIso)),
        ),
      ),
  ] as const;
}
