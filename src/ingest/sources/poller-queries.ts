/** Queries of poller_state: the IMAP poller's one row (id 'imap'): cursor, heartbeat, backoff. No rules here. */
import { and, eq, getTableColumns, sql } from "drizzle-orm";
import type { Db } from "../../db";
import { pollerState as p } from "../../db/schema";

const ID = "imap";

export type PollerState = Omit<typeof p.$inferSelect, "id">;
export type PollerHealth = Pick<
  typeof p.$inferSelect,
  "last_poll_at" | "consecutive_failures" | "last_error" | "backlog"
>;

/** The heartbeat row as the health page reads it (a query: awaited, or one statement of a batch). */
export const heartbeatQuery = (db: Db) =>
  db
    .select({
      last_poll_at: p.last_poll_at,
      consecutive_failures: p.consecutive_failures,
      last_error: p.last_error,
      backlog: p.backlog,
    })
    .from(p)
    .where(eq(p.id, ID));

export async function readPollerRow(db: Db): Promise<PollerState | null> {
  const { id: _id, ...columns } = getTableColumns(p);
  return (await db.select(columns).from(p).where(eq(p.id, ID)).get()) ?? null;
}

/** Creates the row with its defaults unless it exists. */
export const ensurePollerRow = (db: Db) => db.insert(p).values({ id: ID }).onConflictDoNothing();

/** With `claim`: only while this attempt still holds the row (its `last_attempt_at`). */
export const setPollerState = (db: Db, fields: Partial<PollerState>, claim?: string) =>
  db
    .update(p)
    .set(fields)
    .where(claim === undefined ? eq(p.id, ID) : and(eq(p.id, ID), eq(p.last_attempt_at, claim)));

/**
 * Stamps this attempt and its lease only if `last_attempt_at` is still what the caller read and no
 * other attempt's lease runs (the claim).
 */
export const claimPollerAttempt = (db: Db, nowIso: string, seen: string | null, leaseUntil: string) =>
  db
    .update(p)
    .set({ last_attempt_at: nowIso, lease_until: leaseUntil })
    .where(
      and(
        eq(p.id, ID),
        sql`${p.last_attempt_at} IS ${seen}`,
        sql`(${p.lease_until} IS NULL OR ${p.lease_until} <= ${nowIso})`,
      ),
    );
