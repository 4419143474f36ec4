/** Queries of ingestion's small table user_mappings (recipient → UserId). No rules here. */
import { type SQL, sql } from "drizzle-orm";
import type { Db } from "../db";
import { userMappings } from "../db/schema";

/**
 * The mapping of a recipient (0 or 1 row, case-insensitive), as a query for a batch; the recipient
 * may be SQL (a subquery on the caller's stored row).
 */
export const mappingQuery = (db: Db, forwardedTo: string | SQL) =>
  db
    .select({ userId: userMappings.UserId })
    .from(userMappings)
    .where(sql`${userMappings.ForwardedTo} = ${forwardedTo} COLLATE NOCASE`)
    .limit(1);

/** Up to 20 mapped recipient addresses, as a query for a batch. */
export const mappedRecipientsQuery = (db: Db) =>
  db.select({ to: userMappings.ForwardedTo }).from(userMappings).limit(20);

/** A recipient mapped to a user unless it is mapped already (a statement for the caller's batch). */
export const insertMappingIfAbsent = (db: Db, forwardedTo: string, userId: string, nowIso: string) =>
  db
    .insert(userMappings)
    .values({ ForwardedTo: forwardedTo, UserId: userId, created_at: nowIso })
    .onConflictDoNothing();
