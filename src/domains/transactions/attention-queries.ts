/**
 * The attention queue (rows a person should look at: AI-read, forwarded by a stranger, another
 * currency, …), owned by the transactions domain: THE join on a row's key, and the queue's writes.
 * Other domains call these (or the list queries in queries.ts); they never name the table.
 */
import { and, eq, isNull, sql } from "drizzle-orm";
import type { Db } from "../../db";
import { attentionQueue as a, transactions as t } from "../../db/schema";
import type { TxKey } from "../../lib/txid";

/** THE join condition: a transaction row and its attention-queue entry (same ForwardedTo, DateFileName). */
export const attentionOn = () => and(eq(a.ForwardedTo, t.ForwardedTo), eq(a.DateFileName, t.DateFileName));

/** 1 when the joined row is on the queue (use with a left join on attentionOn()). */
export const onQueue = () => sql<number>`(${a.DateFileName} IS NOT NULL)`;

/** The queue entry of one row. */
const attentionKey = (key: TxKey) =>
  and(eq(a.ForwardedTo, key.forwardedTo), eq(a.DateFileName, key.dateFileName));

/** Puts a row on the queue unless it is there (a statement: awaited, or one of a batch). */
export const markAttentionRow = (db: Db, key: TxKey, reason: string, nowIso: string) =>
  db
    .insert(a)
    .values({ ForwardedTo: key.forwardedTo, DateFileName: key.dateFileName, reason, created_at: nowIso })
    .onConflictDoNothing();

/** Takes a row off the queue (a statement), optionally only while `guard` holds. */
export const clearAttentionRow = (db: Db, key: TxKey, guard?: ReturnType<typeof and>) =>
  db.delete(a).where(and(attentionKey(key), guard));

/** Live rows queued for `reason`, oldest entry first (the template offers read AI-rescued rows). */
export const queuedRows = (db: Db, reason: string, limit: number) =>
  db
    .select({ tx: t })
    .from(a)
    .innerJoin(t, attentionOn())
    .where(and(eq(a.reason, reason), isNull(t.DeletedAt)))
    .orderBy(a.created_at)
    .limit(limit);
