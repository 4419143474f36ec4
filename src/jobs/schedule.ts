/**
 * Every background duty of the Worker, by cron expression. wrangler.toml declares the same
 * expressions (test/unit/jobs/local-cron.test.ts checks the two, and the local cron driver, agree).
 */
import { pruneActivityLedger } from "../domains/activity/retention";
import { getDb } from "../db";
import { pruneAuthState } from "../domains/auth/prune";
import { dailyBackup } from "../domains/data/daily";
import { dailySummaryDuty } from "../domains/journal/summaries-job";
import { sendMonthlySummary } from "../domains/summary/monthly";
import { imapIngest } from "../ingest";
import { pruneIgnored } from "../domains/ignored-emails/ignored";
import { IMAP_STEP_KIND, imapConfigFromEnv, pollIntervalFromEnv, pollMailbox } from "../ingest/sources/imap";
import { sweepInbox } from "../ingest/sources/r2-event";
import type { Env } from "../env";
import { type Clock, systemClock } from "../lib/clock";
import { log } from "../lib/log";
import type { Duty } from "./cron";
import type { QueueMessage } from "./messages";
import { CRON, type CronExpression } from "./crons";

export { CRON } from "./crons";

/**
 * Poll the mailbox when one is configured (pollMailbox honours poll_interval and backoff). A poll is
 * one bounded step: when messages remain above the cursor it queues the next step ("imap-step",
 * the cursor it left in the payload), which the queue consumer runs here with `after`.
 */
export async function pollImap(env: Env, clock: Clock, after?: number, maxMessages?: number) {
  const config = imapConfigFromEnv(env);
  if (!config) return;
  const result = await pollMailbox({
    config,
    db: getDb(env.DB),
    clock,
    ingest: imapIngest(env, clock),
    pollIntervalSeconds: pollIntervalFromEnv(env),
    chain: (uid) => env.JOBS.send({ type: "job", kind: IMAP_STEP_KIND, payload: { after: uid } }),
    ...(after === undefined ? {} : { step: { after } }),
    ...(maxMessages ? { maxMessages } : {}),
  });
  if (result.status !== "skipped") log("info", "imap.poll", { ...result });
  return result;
}

/** The queue's "imap-step": the next step of a mailbox backlog (`maxMessages`: a test's smaller step). */
export async function imapStep(
  env: Env,
  msg: QueueMessage,
  clock: Clock = systemClock,
  maxMessages?: number,
) {
  const after = "payload" in msg ? msg.payload.after : undefined;
  if (typeof after !== "number" || !Number.isInteger(after) || after < 0) return;
  return pollImap(env, clock, after, maxMessages);
}

/** Raw emails under the inbox prefix that no R2 notification delivered. */
async function sweep(env: Env, clock: Clock) {
  const n = await sweepInbox(env, { clock });
  if (n > 0) log("info", "inbox.sweep", { ingested: n });
}

/** Every expression of CRON has its list (the type refuses a missing or an extra one). */
export const SCHEDULE: Readonly<Record<CronExpression, readonly Duty[]>> = {
  [CRON.everyMinute]: [
    { name: "imap.poll", run: (env, clock) => pollImap(env, clock) },
    { name: "inbox.sweep", run: sweep },
    // With enable_daily_summaries: today's day summary at daily_summary_schedule_time (local).
    { name: "summaries.daily", run: dailySummaryDuty },
  ],
  // 03:30 UTC: the full-data backup zip into R2 (when object_backup_enabled), then ledger retention.
  [CRON.daily]: [
    { name: "backup.daily", run: dailyBackup },
    { name: "activity.retention", run: pruneActivityLedger },
    // Ignored emails are listed for 90 days (the raw email stays in R2 with every other).
    {
      name: "ignored.retention",
      run: (env, clock) => pruneIgnored(getDb(env.DB), clock()).then(() => undefined),
    },
    { name: "auth.prune", run: pruneAuthState },
  ],
  // The 8th at 17:00 UTC: the previous month's summary through the notification provider.
  [CRON.monthly]: [{ name: "summary.monthly", run: sendMonthlySummary }],
};
