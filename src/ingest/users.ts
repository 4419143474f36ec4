/**
 * Recipient (forwarded-to) → UserId through user_mappings. Read per email (a one-row lookup), so a
 * restored or edited mapping applies to the very next email.
 */
import { getDb } from "../db";
import { log } from "../lib/log";
import { insertMappingIfAbsent, mappingQuery, mappingsInQuery } from "./queries";

export { insertMappingIfAbsent, mappingQuery, mappingsInQuery };

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
