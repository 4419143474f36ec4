/**
 * Recipient (forwarded-to) → UserId through user_mappings. Read per email (a one-row lookup), so a
 * restored or edited mapping applies to the very next email.
 */
import type { Db } from "../db";
import { log } from "../lib/log";
import { mappingQuery } from "./queries";

/** The mapped UserId, else the configured default (a failed lookup also gives the default). */
export async function resolveUserId(db: Db, forwardedTo: string, fallback: string): Promise<string> {
  try {
    const [row] = await mappingQuery(db, forwardedTo);
    return row?.userId ?? fallback;
  } catch (err) {
    log("warn", "ingest.user_mapping_failed", { error: String(err) });
    return fallback;
  }
}
