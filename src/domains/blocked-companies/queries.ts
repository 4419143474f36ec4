/** Queries of the blocked-company list (blocked_companies). No rules here. */
import { asc, eq } from "drizzle-orm";
import type { Db } from "../../db";
import { blockedCompanies as b } from "../../db/schema";

export type BlockedRow = typeof b.$inferSelect;

/** The list in key order, as a query for a caller's batch (ingestion's settings). */
export const blockedListQuery = (db: Db) => db.select().from(b).orderBy(asc(b.key));

/** Replaces the whole list in one batch. */
export async function replaceBlockedRows(db: Db, rows: BlockedRow[]): Promise<void> {
  await db.batch([db.delete(b), ...rows.map((r) => db.insert(b).values(r))]);
}

export async function findBlocked(db: Db, key: string): Promise<BlockedRow | null> {
  return (await db.select().from(b).where(eq(b.key, key)).get()) ?? null;
}

/** Adds an entry unless its key is there (unexecuted: for the verb's ledger batch). */
export const insertBlockedQuery = (db: Db, row: BlockedRow) => db.insert(b).values(row).onConflictDoNothing();

/** Removes an entry (unexecuted: for the verb's ledger batch). */
export const deleteBlockedQuery = (db: Db, key: string) => db.delete(b).where(eq(b.key, key));

/** Writes an entry back as it was (activity revert): inserted, or its name restored (unexecuted). */
export const upsertBlockedQuery = (db: Db, row: BlockedRow) =>
  db
    .insert(b)
    .values(row)
    .onConflictDoUpdate({ target: b.key, set: { company: row.company } });
