/**
 * Daily backup (03:30 UTC cron) when `object_backup_enabled`: the same zip as GET /data/export,
 * written to R2 under `object_backup_prefix` (default `backups/daily/`), keeping the newest 30.
 * Built in bounded steps (export-steps.ts): the cron run writes the first, queue messages the rest;
 * the zip goes into an R2 multipart upload part by part, never held whole in memory.
 */
import type { Env } from "../../env";
import type { Clock } from "../../lib/clock";
import { log } from "../../lib/log";
import { getConfig } from "../config/service";
import { type StepBudget, STEP, startBuild } from "./export-steps";

export const KEEP_DAILY = 30;

/** The key the day's zip is (or will be, once its steps finish) written to; null when off or one still runs. */
export async function dailyBackup(env: Env, clock: Clock, budget: StepBudget = STEP): Promise<string | null> {
  const config = await getConfig({ env });
  if (!config.object_backup_enabled) return null;
  const prefix = (config.object_backup_prefix?.trim() || "backups/daily").replace(/\/*$/, "/");
  const key = `${prefix}${clock().toISOString().slice(0, 10)}.zip`;
  const res = await startBuild(env, clock, {
    kind: "backup-daily",
    key: () => key,
    prune: `${prefix}|${KEEP_DAILY}`,
    budget,
  });
  if (!res.ok) {
    log("warn", "backup.daily_busy", { started_at: res.job.started_at });
    return null;
  }
  if (res.job.status === "failed") throw new Error(res.job.error ?? "the daily backup failed");
  log("info", "backup.daily", { key, finished: res.finished });
  return key;
}
