/**
 * Health reads: all in one D1 batch (one round trip). Health never fails: when the batch fails
 * (a broken database, a missing table), every read is unknown (null).
 */
import { max } from "drizzle-orm";
import { type Db, namedBatch } from "../../db";
import { type KvExact, type KvFamily, kvRowsQuery } from "../../db/kv";
import { transactions } from "../../db/schema";
import { heartbeatQuery } from "../../ingest/sources/poller-queries";
import { log } from "../../lib/log";
import { passwordSetQuery } from "../auth/queries";
import { failuresSinceQuery } from "../parse-failures/queries";

const lastTransactionQuery = (db: Db) => db.select({ t: max(transactions.CreatedAt) }).from(transactions);

/** Every health read in one round trip; all unknown when it fails. */
export async function readHealthRows(
  db: Db,
  q: { sinceIso: string; stateKey: KvExact; statePrefix: KvFamily },
) {
  try {
    const r = await namedBatch(db, {
      heartbeat: heartbeatQuery(db),
      lastTx: lastTransactionQuery(db),
      failures: failuresSinceQuery(db, q.sinceIso),
      state: kvRowsQuery(db, { keys: [q.stateKey], families: [q.statePrefix] }),
      password: passwordSetQuery(db),
    });
    return {
      heartbeat: r.heartbeat[0] ?? null,
      lastTransactionAt: r.lastTx[0]?.t ?? null,
      parseFailures7d: r.failures[0]?.n ?? null,
      state: r.state,
      passwordSet: r.password.length > 0,
    };
  } catch (err) {
    log("warn", "health.read_failed", { error: String(err) });
    return {
      heartbeat: null,
      lastTransactionAt: null,
      parseFailures7d: null,
      state: null,
      passwordSet: false,
    };
  }
}
