/**
 * Retry-all in bounded steps: the request retries the first RETRY_STEP_ROWS rows of the
 * backlog and answers (a backlog that small is done: the answer is the totals); a larger
 * one goes on in queue messages ("retry-all-step"), one step each, its running totals in the
 * single-slot Durable Object, which GET /parse-failures/retry-all returns.
 */
import { z } from "zod";
import type { Env } from "../../env";
import type { QueueMessage } from "../../jobs/messages";
import { jobSlot, steppedRun } from "../../db/job-slot";
import type { SlotJob } from "../../db/job-slot-state";
import { afterStep, progressNum, queuedJob, runJobStep, type StepRun } from "../../db/step-runner";
import type { Clock } from "../../lib/clock";
import type { ServiceCtx } from "../../lib/context";
import { RETRY_STEP_ROWS, retryAllParseFailures } from "./service";

const RETRY_KIND = "retry-all";
export const RETRY_STEP_KIND = "retry-all-step";

type Filter = { from_domain?: string | null; institution?: string | null };
const COUNTS = ["retried", "created", "duplicates", "still_failing"] as const;
type Totals = Record<(typeof COUNTS)[number], number>;
const totals = (count: (k: keyof Totals) => number) =>
  Object.fromEntries(COUNTS.map((k) => [k, count(k)])) as Totals;
const RUN: StepRun = {
  kind: RETRY_KIND,
  stepKind: RETRY_STEP_KIND,
  event: "retry_all.step_failed",
  failure: "Retrying the backlog stopped on an error; start it again.",
};

const Payload = z.object({
  id: z.string(),
  after: z.object({ created_at: z.string(), id: z.string() }),
  filter: z.object({ from_domain: z.string().nullish(), institution: z.string().nullish() }),
});

const totalsOf = (job: SlotJob | null): Totals => totals((k) => progressNum(job, k));
const add = (a: Totals, b: Totals): Totals => totals((k) => a[k] + b[k]);

/**
 * POST retry-all: the first step here. Done: the totals with status "done". More left: the rest is
 * queued, the answer has the first step's totals with status "running" and the task's id. While
 * a run goes on, another start answers its status (409).
 */
export async function startRetryAll(
  ctx: ServiceCtx,
  { filter, limit = RETRY_STEP_ROWS }: { filter: Filter; limit?: number },
) {
  const running = await retryAllStatus(ctx.env, ctx.clock);
  if (running.status === "running") return { started: false, body: running };
  const { totals, next } = await retryAllParseFailures(ctx, { filter, limit });
  if (!next) return { started: true, body: { ...totals, status: "done" as const, task_id: null } };
  const slot = jobSlot(ctx.env, RETRY_KIND);
  const res = await slot.start(RETRY_KIND, 24 * 60 * 60 * 1000);
  if (!res.ok) return { started: false, body: await retryAllStatus(ctx.env, ctx.clock) };
  const id = res.job.id;
  await afterStep(ctx.env, ctx.clock, RUN, id, {
    progress: { ...totals, steps: 1 },
    next: { id, after: next, filter },
  });
  return { started: true, body: { ...totals, status: "running" as const, task_id: id } };
}

/**
 * The queue's "retry-all-step": the next rows after the cursor, journaled in `ctx` (the queue door's
 * ledger: it settles it with the outcome). Never throws: a failure ends the run with its reason.
 */
export async function runRetryAllStep(
  ctx: ServiceCtx,
  { msg, limit = RETRY_STEP_ROWS }: { msg: QueueMessage; limit?: number },
): Promise<boolean> {
  const queued = await queuedJob(ctx.env, msg, Payload, () => RETRY_KIND);
  if (!queued) return true;
  const { job, p } = queued;
  // A redelivered message: the run's cursor already moved past it.
  if (job.progress.after_id !== undefined && job.progress.after_id !== p.after.id) return true;
  return runJobStep(ctx.env, ctx.clock, RUN, job.id, async () => {
    const { totals, next } = await retryAllParseFailures(ctx, { filter: p.filter, after: p.after, limit });
    const sum = add(totalsOf(job), totals);
    const steps = progressNum(job, "steps") + 1;
    if (!next) return { progress: { ...sum, steps }, result: sum };
    return { progress: { ...sum, steps, after_id: next.id }, next: { ...p, after: next } };
  });
}

/** The latest run: running (its totals so far), done, error, or idle. */
export async function retryAllStatus(env: Env, clock: Clock) {
  const { job, view } = await steppedRun(
    env,
    RETRY_KIND,
    clock(),
    "Retrying the backlog stopped making progress.",
  );
  return { ...totalsOf(job), ...view, steps: progressNum(job, "steps") };
}
