/** Queries of poller_state: the IMAP poller's one row (id 'imap'): cursor, heartbeat, backoff. No rules here. */
import { and, eq, getTableColumns, sql } from "drizzle-orm";
import type { Db } from "../../db";
import { pollerState as p } from "../../db/schema";

const ID = "imap";

export type PollerState = Omit<typeof p.$inferSelect, "id">;
export type PollerHealth = Pick<
  typeof p.$inferSelect,
  "last_poll_at" | "consecutive_failures" | "last_error"
>;

/** The heartbeat row as the health page reads it (a query: awaited, or one statement of a batch). */
export const heartbeatQuery = (db: Db) =>
  db
    .select({
      last_poll_at: p.last_poll_at,
      consecutive_failures: p.consecutive_failures,
      last_error: p.last_error,
    })
    .from(p)
    .where(eq(p.id, ID));

export async function readPollerRow(db: Db): Promise<PollerState | null> {
  const { id: _id, ...columns } = getTableColumns(p);
  return (await db.select(columns).from(p).where(eq(p.id, ID)).get()) ?? null;
}

/** Creates the row with its defaults unless it exists. */
export const ensurePollerRow = (db: Db) => db.insert(p).values({ id: ID }).onConflictDoNothing();

export const setPollerState = (db: Db, fields: Partial<PollerState>) =>
  db.update(p).set(fields).where(eq(p.id, ID));

/** Stamps this attempt only if `last_attempt_at` is still what the caller read (the claim). */
export const claimPollerAttempt = (db: Db, nowIso: string, seen: string | null) =>
  db
    .update(p)
    .set({ last_attempt_at: nowIso })
    .where(and(eq(p.id, ID), sql`${p.last_attempt_at} IS ${seen}`));
