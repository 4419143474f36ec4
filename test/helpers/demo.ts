import { env } from "cloudflare:test";
import type { Env } from "../../src/env";
import { DEMO_STEP_KIND } from "../../src/domains/system/demo-steps";
import { QUEUE_HANDLERS } from "../../src/jobs/consumer";
import type { QueueMessage } from "../../src/jobs/messages";
import { type CallOptions, type CallResult, call } from "./http";
import { PLAN_LIMITS, perInvocation } from "./limits";

/** Half of the Workers Paid per-invocation limits: what every step of bulk work must stay within. */
export const HALF_PAID = {
  d1Queries: PLAN_LIMITS.paid.d1Queries / 2,
  operations: PLAN_LIMITS.paid.operations / 2,
};

export interface DemoSeed {
  /** The POST's answer (202 with the run's status, or its refusal). */
  start: CallResult;
  /** GET /setup/demo-data once every step ran (null when the POST refused). */
  done: CallResult | null;
  /** Each invocation's counts: the POST's, then each step's, in order. */
  invocations: { d1Queries: number; operations: number }[];
  /** The status read after each step (the progress a person watches). */
  progress: { stage: string | null; emails_done: number; emails_total: number }[];
}

/**
 * The demo household as the dashboard adds it: POST /setup/demo-data, then each step the queue
 * would deliver, through the queue door, each as its own invocation (its counts kept; one past
 * half the Paid budget fails here), until none is left.
 */
export async function seedDemo(query = "", opts: CallOptions = {}): Promise<DemoSeed> {
  const sent: QueueMessage[] = [];
  const queue = {
    send: async (body: QueueMessage) => void sent.push(body),
    sendBatch: async () => undefined,
  } as unknown as Queue<unknown>;
  const path = `/api/v1/setup/demo-data${query}`;
  const start = await call(path, { ...opts, method: "POST", env: { ...opts.env, JOBS: queue } });
  const invocations = [start.counts];
  const progress: DemoSeed["progress"] = [];
  if (start.status !== 202) return { start, done: null, invocations, progress };
  const step = QUEUE_HANDLERS.jobs[DEMO_STEP_KIND]!;
  while (sent.length) {
    const inv = perInvocation({ ...env, ...opts.env, JOBS: queue } as Env);
    await step(inv.env, sent.shift()!);
    invocations.push(inv.counts);
    const s = (await call("/api/v1/setup/demo-data", { now: opts.now })).body;
    progress.push({ stage: s.stage, emails_done: s.emails_done, emails_total: s.emails_total });
  }
  for (const [i, c] of invocations.entries())
    if (c.d1Queries > HALF_PAID.d1Queries || c.operations > HALF_PAID.operations)
      throw new Error(`demo seed invocation ${i} past half the Paid budget: ${JSON.stringify(c)}`);
  return { start, done: await call("/api/v1/setup/demo-data", { now: opts.now }), invocations, progress };
}
