/**
 * A run in bounded steps: its JobSlot (one per kind) holds the progress a status route returns; each
 * step after the first is a queue message carrying the run's id and its cursor. A message of another
 * or a finished run is dropped (the caller also drops one whose step already ran); a failing step
 * ends the run with its reason in words.
 */
import type { z } from "zod";
import type { Env } from "../env";
import type { QueueMessage } from "../jobs/messages";
import type { Clock } from "../lib/clock";
import { log } from "../lib/log";
import { jobSlot } from "./job-slot";
import type { Json, Scalar, SlotJob } from "./job-slot-state";

export interface StepRun {
  /** The JobSlot kind (one running job per kind). */
  kind: string;
  /** The queue message kind of its steps. */
  stepKind: string;
  /** The log event when a step fails. */
  event: string;
  /** The job's error when a step fails. */
  failure: string;
  /** After a failed step, before the job ends (e.g. a kept file removed). */
  cleanup?: () => Promise<unknown>;
}

type Progress = Record<string, Scalar>;
/** What a step did: its progress, then the next step's payload or the run's result. */
export type StepDone =
  | { progress: Progress; next: Record<string, unknown> }
  | { progress: Progress; result: Json };

/** A number in the job's progress (0 when absent). */
export const progressNum = (job: SlotJob | null, k: string) => {
  const v = job?.progress[k];
  return typeof v === "number" ? v : 0;
};

/** The running job a queued step belongs to and its payload (null: malformed, or not the running job's). */
export async function queuedJob<P extends { id: string }>(
  env: Env,
  msg: QueueMessage,
  payload: z.ZodType<P>,
  kind: (p: P) => string,
): Promise<{ job: SlotJob; p: P } | null> {
  const parsed = payload.safeParse("payload" in msg ? msg.payload : null);
  if (!parsed.success) return null;
  const job = await jobSlot(env, kind(parsed.data)).status();
  return job?.id === parsed.data.id && job.status === "running" ? { job, p: parsed.data } : null;
}

/** Records a step's progress, then queues the next step or completes the job. */
export async function afterStep(env: Env, clock: Clock, run: StepRun, id: string, out: StepDone) {
  const slot = jobSlot(env, run.kind);
  await slot.progress(id, { ...out.progress, updated_at: clock().toISOString() });
  if ("next" in out) await env.JOBS.send({ type: "job", kind: run.stepKind, payload: out.next });
  else await slot.complete(id, { result: out.result });
}

/** Runs one step of job `id`; a failure (false) is logged, cleaned up, and ends the job with its reason. */
export async function runJobStep(
  env: Env,
  clock: Clock,
  run: StepRun,
  id: string,
  step: () => Promise<StepDone>,
): Promise<boolean> {
  try {
    await afterStep(env, clock, run, id, await step());
    return true;
  } catch (err) {
    log("error", run.event, { kind: run.kind, error: String(err) });
    await run.cleanup?.().catch(() => undefined);
    await jobSlot(env, run.kind).complete(id, { error: run.failure });
    return false;
  }
}
