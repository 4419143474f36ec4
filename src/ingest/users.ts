/**
 * Recipient (forwarded-to) → UserId through user_mappings. Read per email (a one-row lookup), so a
 * restored or edited mapping applies to the very next email.
 */
import { sql } from "drizzle-orm";
import { type Db, getDb } from "../db";
import { userMappings } from "../db/schema";
import { log } from "../lib/log";

/** The mapped UserId, else the configured default (a failed lookup also gives the default). */
export async function resolveUserId(d1: D1Database, forwardedTo: string, fallback: string): Promise<string> {
  try {
    const [row] = await mappingQuery(getDb(d1), forwardedTo);
    return row?.userId ?? fallback;
  } catch (err) {
    log("warn", "ingest.user_mapping_failed", { error: String(err) });
    return fallback;
  }
}

/** The mapping of a recipient (0 or 1 row), as a query for a batch. */
export const mappingQuery = (db: Db, forwardedTo: string) =>
  db
    .select({ userId: userMappings.UserId })
    .from(userMappings)
    .where(sql`${userMappings.ForwardedTo} = ${forwardedTo} COLLATE NOCASE`)
    .limit(1);

/** Recipient addresses alerts have arrived at (the mapping table learns each one). */
export async function knownRecipients(db: Db, exclude: string): Promise<string[]> {
  const rows = await db.select({ to: userMappings.ForwardedTo }).from(userMappings).limit(20);
  return rows.map((r) => r.to).filter((to) => to.toLowerCase() !== exclude.toLowerCase());
}

/** A recipient mapped to a user unless it is mapped already (a statement for the caller's batch). */
export const insertMappingIfAbsent = (db: Db, forwardedTo: string, userId: string, nowIso: string) =>
  db
    .insert(userMappings)
    .values({ ForwardedTo: forwardedTo, UserId: userId, created_at: nowIso })
    .onConflictDoNothing();
