/**
 * What runs on each cron and which queue messages have handlers, registered in one place so the
 * Worker's entry point shows every background duty. (Domains with their own schedules — the
 * activity ledger's retention — register when their router is imported by the app.)
 */
import { dailyBackup } from "../domains/data/daily";
import { sendMonthlySummary } from "../domains/summary/monthly";
import { imapIngest } from "../ingest";
import { imapConfigFromEnv, pollIntervalFromEnv, pollMailbox } from "../ingest/sources/imap";
import { sweepInbox } from "../ingest/sources/r2-event";
import { log } from "../lib/log";
import { CRON, registerCron } from "./cron";

// Every minute: poll the mailbox when one is configured (pollMailbox honours poll_interval and backoff).
registerCron(CRON.everyMinute, "imap.poll", async (env, clock) => {
  const config = imapConfigFromEnv(env);
  if (!config) return;
  const result = await pollMailbox({
    config,
    db: env.DB,
    clock,
    ingest: imapIngest(env, clock),
    pollIntervalSeconds: pollIntervalFromEnv(env),
  });
  if (result.status !== "skipped") log("info", "imap.poll", { ...result });
});

// Every minute: raw emails under the inbox prefix that no R2 notification delivered.
registerCron(CRON.everyMinute, "inbox.sweep", async (env, clock) => {
  const n = await sweepInbox(env, { clock });
  if (n > 0) log("info", "inbox.sweep", { ingested: n });
});

// The 8th at 17:00 UTC: the previous month's summary through the notification provider.
registerCron(CRON.monthly, "summary.monthly", async (env, clock) => {
  await sendMonthlySummary(env, clock);
});

// 03:30 UTC daily: the full-data backup zip into R2, when object_backup_enabled.
registerCron(CRON.daily, "backup.daily", async (env, clock) => {
  await dailyBackup(env, clock);
});
