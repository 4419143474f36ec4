/** Health reads: each is independent and fail-open (null on any error, e.g. a missing table). */
import { and, count, eq, gte, like, max, or } from "drizzle-orm";
import type { Db } from "../../db";
import { kvState, parseFailures, pollerState, transactions } from "../../db/schema";
import { log } from "../../lib/log";

async function firstOrNull<T>(what: string, run: () => Promise<T | null | undefined>): Promise<T | null> {
  try {
    return (await run()) ?? null;
  } catch (err) {
    log("warn", "health.read_failed", { what, error: String(err) });
    return null;
  }
}

export type PollerHealth = Pick<
  typeof pollerState.$inferSelect,
  "last_poll_at" | "consecutive_failures" | "last_error"
>;

export function readHeartbeat(db: Db): Promise<PollerHealth | null> {
  const p = pollerState;
  return firstOrNull("heartbeat", async () => {
    const rows = await db
      .select({
        last_poll_at: p.last_poll_at,
        consecutive_failures: p.consecutive_failures,
        last_error: p.last_error,
      })
      .from(p)
      .where(eq(p.id, "imap"));
    return rows[0];
  });
}

export function readLastTransactionAt(db: Db): Promise<string | null> {
  return firstOrNull("last_transaction", async () => {
    const rows = await db.select({ t: max(transactions.CreatedAt) }).from(transactions);
    return rows[0]?.t;
  });
}

export function countParseFailuresSince(db: Db, sinceIso: string): Promise<number | null> {
  const f = parseFailures;
  return firstOrNull("parse_failures_7d", async () => {
    const rows = await db
      .select({ n: count() })
      .from(f)
      .where(and(eq(f.status, "quarantined"), gte(f.created_at, sinceIso)));
    return rows[0]?.n;
  });
}

/** kv_state rows of one key and of a key prefix, in one read. */
export function readStateRows(
  db: Db,
  key: string,
  prefix: string,
): Promise<{ key: string; value: string }[] | null> {
  return firstOrNull(key, () =>
    db
      .select({ key: kvState.key, value: kvState.value })
      .from(kvState)
      .where(or(eq(kvState.key, key), like(kvState.key, `${prefix}%`))),
  );
}
