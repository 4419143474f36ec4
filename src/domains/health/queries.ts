/**
 * Health reads: all in one D1 batch (one round trip); when the batch fails (e.g. a missing table
 * fails every statement of it), each runs on its own and fails open (null on any error).
 */
import { max } from "drizzle-orm";
import type { Db } from "../../db";
import { type KvExact, type KvFamily, kvRowsQuery } from "../../db/kv";
import { transactions } from "../../db/schema";
import { heartbeatQuery, type PollerHealth } from "../../ingest/sources/poller-queries";
import { log } from "../../lib/log";
import { passwordSetQuery } from "../auth/queries";
import { failuresSinceQuery } from "../parse-failures/queries";

async function firstOrNull<T>(what: string, run: () => Promise<T | null | undefined>): Promise<T | null> {
  try {
    return (await run()) ?? null;
  } catch (err) {
    log("warn", "health.read_failed", { what, error: String(err) });
    return null;
  }
}

export type { PollerHealth };

export function readHeartbeat(db: Db): Promise<PollerHealth | null> {
  return firstOrNull("heartbeat", async () => (await heartbeatQuery(db))[0]);
}

const lastTransactionQuery = (db: Db) => db.select({ t: max(transactions.CreatedAt) }).from(transactions);

/** kv_state rows of one key and of a key family, in one read. */
const stateRowsQuery = (db: Db, key: KvExact, family: KvFamily) =>
  kvRowsQuery(db, { keys: [key], families: [family] });

export interface HealthRows {
  heartbeat: PollerHealth | null;
  lastTransactionAt: string | null;
  parseFailures7d: number | null;
  state: { key: string; value: unknown }[] | null;
  passwordSet: boolean;
}

/** Every health read in one round trip; per-read fallbacks when the batch fails. */
export async function readHealthRows(
  db: Db,
  q: { sinceIso: string; stateKey: KvExact; statePrefix: KvFamily },
): Promise<HealthRows> {
  try {
    const [hb, tx, pf, st, pw] = await db.batch([
      heartbeatQuery(db),
      lastTransactionQuery(db),
      failuresSinceQuery(db, q.sinceIso),
      stateRowsQuery(db, q.stateKey, q.statePrefix),
      passwordSetQuery(db),
    ]);
    return {
      heartbeat: hb[0] ?? null,
      lastTransactionAt: tx[0]?.t ?? null,
      parseFailures7d: pf[0]?.n ?? null,
      state: st,
      passwordSet: pw.length > 0,
    };
  } catch (err) {
    log("warn", "health.batch_failed", { error: String(err) });
  }
  const [heartbeat, lastTransactionAt, parseFailures7d, state, passwordSet] = await Promise.all([
    readHeartbeat(db),
    firstOrNull("last_transaction", async () => (await lastTransactionQuery(db))[0]?.t),
    firstOrNull("parse_failures_7d", async () => (await failuresSinceQuery(db, q.sinceIso))[0]?.n),
    firstOrNull(q.stateKey, () => stateRowsQuery(db, q.stateKey, q.statePrefix)),
    firstOrNull("password_set", async () => (await passwordSetQuery(db)).length > 0),
  ]);
  return { heartbeat, lastTransactionAt, parseFailures7d, state, passwordSet: passwordSet ?? false };
}
