/**
 * Queue consumer: validate, dispatch by message type from the table below, ack or retry.
 * Invalid bodies and messages nothing handles are acked (retrying cannot help them).
 */
import type { Env } from "../env";
import { runBuildStep, STEP_KIND } from "../domains/data/export-steps";
import { runTaxBuildStep, TAX_STEP_KIND } from "../domains/tax/export-steps";
import { RESTORE_STEP_KIND, runRestoreFilesStep } from "../domains/data/restore-steps";
import { runInsightsJob } from "../domains/insights/job";
import { RETRY_STEP_KIND, runRetryAllStep } from "../domains/parse-failures/retry-steps";
import { runDaySummariesJob } from "../domains/journal/summaries-job";
import { handleInboxObject } from "../ingest/sources/r2-event";
import { IMAP_STEP_KIND } from "../ingest/sources/imap";
import { imapStep } from "./schedule";
import { DEMO_OPERATION, DEMO_STEP_KIND, runDemoStep } from "../domains/system/demo-steps";
import { jobCtx } from "../domains/activity/journal";
import { type Clock, systemClock } from "../lib/clock";
import { log } from "../lib/log";
import { QueueMessage } from "./messages";

type JobHandler = (env: Env, msg: QueueMessage) => Promise<unknown>;

export interface QueueHandlers {
  /** R2 "object created" events under the inbox prefix (the R2 door). */
  r2: JobHandler;
  /** Jobs the app enqueued itself, by `kind`. */
  jobs: Readonly<Record<string, JobHandler>>;
}

export const QUEUE_HANDLERS: QueueHandlers = {
  r2: (env, msg) => handleInboxObject(env, msg),
  jobs: {
    insights: runInsightsJob,
    "day-summaries": runDaySummariesJob,
    [STEP_KIND]: (env, msg) => runBuildStep(env, msg),
    [RETRY_STEP_KIND]: (env, msg) => retryAllStep(env, msg),
    [TAX_STEP_KIND]: (env, msg) => runTaxBuildStep(env, msg),
    [RESTORE_STEP_KIND]: (env, msg) => runRestoreFilesStep(env, msg, systemClock),
    [IMAP_STEP_KIND]: (env, msg) => imapStep(env, msg),
    [DEMO_STEP_KIND]: (env, msg) => demoStep(env, msg),
  },
};

/** The queue door of a retry-all step: the step's entries under the job's name, settled with its outcome. */
export async function retryAllStep(env: Env, msg: QueueMessage, clock: Clock = systemClock) {
  const { ctx, ledger } = jobCtx(env, clock, RETRY_STEP_KIND);
  await ledger.settle(await runRetryAllStep(ctx, { msg }));
}

/** The queue door of a demo seed's step: its entries under the seed's operation, settled with its outcome. */
async function demoStep(env: Env, msg: QueueMessage, clock: Clock = systemClock) {
  const { ctx, ledger } = jobCtx(env, clock, DEMO_OPERATION);
  await ledger.settle(await runDemoStep(ctx, { msg }));
}

/** Exponential retry delay: 5 s, 10 s, 20 s, … capped at 5 minutes. */
const retryDelay = (attempts: number) => Math.min(300, 5 * 2 ** Math.max(0, attempts - 1));

export async function consume(
  batch: MessageBatch<unknown>,
  env: Env,
  handlers: QueueHandlers = QUEUE_HANDLERS,
): Promise<void> {
  for (const message of batch.messages) {
    const parsed = QueueMessage.safeParse(message.body);
    if (!parsed.success) {
      log("warn", "queue.invalid_message", { id: message.id });
      message.ack();
      continue;
    }
    const body = parsed.data;
    const handler = "type" in body ? handlers.jobs[body.kind] : handlers.r2;
    if (!handler) {
      log("warn", "queue.no_handler", { id: message.id, kind: "type" in body ? body.kind : "r2" });
      message.ack();
      continue;
    }
    try {
      await handler(env, body);
      message.ack();
    } catch (err) {
      log("error", "queue.handler_failed", {
        id: message.id,
        attempts: message.attempts,
        error: String(err),
      });
      message.retry({ delaySeconds: retryDelay(message.attempts) });
    }
  }
}
