/** Health reads: each is independent and fail-open (null on any error, e.g. a missing table). */
import { log } from "../../lib/log";

async function firstOrNull<T>(what: string, run: () => Promise<T | null>): Promise<T | null> {
  try {
    return await run();
  } catch (err) {
    log("warn", "health.read_failed", { what, error: String(err) });
    return null;
  }
}

export interface PollerHealth {
  last_poll_at: string | null;
  consecutive_failures: number;
  last_error: string | null;
}

export function readHeartbeat(db: D1Database): Promise<PollerHealth | null> {
  return firstOrNull("heartbeat", async () =>
    db
      .prepare("SELECT last_poll_at, consecutive_failures, last_error FROM poller_state WHERE id = 'imap'")
      .first<PollerHealth>(),
  );
}

export function readLastTransactionAt(db: D1Database): Promise<string | null> {
  return firstOrNull("last_transaction", async () =>
    db.prepare("SELECT MAX(CreatedAt) AS t FROM transactions").first<string>("t"),
  );
}

export function countParseFailuresSince(db: D1Database, sinceIso: string): Promise<number | null> {
  return firstOrNull("parse_failures_7d", async () =>
    db
      .prepare("SELECT COUNT(*) AS n FROM parse_failures WHERE status = 'quarantined' AND created_at >= ?")
      .bind(sinceIso)
      .first<number>("n"),
  );
}

export function readStateValue(db: D1Database, key: string): Promise<string | null> {
  return firstOrNull(key, async () =>
    db.prepare("SELECT value FROM kv_state WHERE key = ?").bind(key).first<string>("value"),
  );
}
