/** Ledger retention: entries older than 90 days are pruned (listed on the daily cron in src/jobs/schedule.ts). */
import type { Env } from "../../env";
import { getDb } from "../../db";
import type { Clock } from "../../lib/clock";
import { log } from "../../lib/log";
import { pruneBefore } from "./queries";
import { retentionCutoff } from "./rules";

export async function pruneActivityLedger(env: Env, clock: Clock): Promise<void> {
  const cutoff = retentionCutoff(clock());
  const removed = await pruneBefore(getDb(env.DB), cutoff);
  log("info", "activity.pruned", { removed, cutoff });
}
