/**
 * Daily housekeeping of the auth tables: sessions ended or expired more than 30 days ago, and
 * per-address wrong-password buckets untouched for a day with no lock in force (the global bucket
 * is kept). Nothing here can sign anyone in or out: live sessions and active locks are untouched.
 */
import { getDb } from "../../db";
import type { Env } from "../../env";
import type { Clock } from "../../lib/clock";
import { log } from "../../lib/log";
import { pruneQueries } from "./session-queries";

const DAY_MS = 86_400_000;

export async function pruneAuthState(env: Env, clock: Clock): Promise<void> {
  const now = clock().getTime();
  const monthAgo = new Date(now - 30 * DAY_MS).toISOString();
  const dayAgo = new Date(now - DAY_MS).toISOString();
  const nowIso = new Date(now).toISOString();
  const db = getDb(env.DB);
  const [s, b] = await db.batch(pruneQueries(db, monthAgo, dayAgo, nowIso));
  log("info", "auth.pruned", { sessions: s.meta.changes, throttles: b.meta.changes });
}
