/**
 * The demo household in bounded steps: the request sets up the rules and budget, takes
 * the single slot and queues the first step ("demo-data-step"); each step sends the next
 * DEMO_STEP_ALERTS alerts through ingest (./demo-household.ts) and queues the next, and the last
 * brings the statement, receipts and chores in. The slot holds the counts (alerts sent of all),
 * which GET /setup/demo-data returns. A step costs about 6 operations an alert (D1 and R2).
 */
import { z } from "zod";
import { DEMO_OVERRIDES, DEMO_RECIPIENT } from "../../../scripts/lib/demo-data.mjs";
import { getDb } from "../../db";
import { jobSlot, steppedRun } from "../../db/job-slot";
import type { SlotJob } from "../../db/job-slot-state";
import type { Env } from "../../env";
import type { QueueMessage } from "../../jobs/messages";
import {
  afterStep,
  progressNum,
  queuedJob,
  runJobStep,
  type StepDone,
  type StepRun,
} from "../../db/step-runner";
import type { Clock } from "../../lib/clock";
import type { ServiceCtx } from "../../lib/context";
import { ApiError, conflict } from "../../lib/errors";
import {
  type DemoOutcomes,
  type DemoParams,
  demoAlertCount,
  finishDemo,
  ingestDemoAlerts,
  setUpDemo,
} from "./demo-household";
import type { DemoDataStatus } from "./setup-schemas";
import { countTransactions, hasAnyTransaction } from "./setup-queries";

export const DEMO_KIND = "demo-data";
export const DEMO_STEP_KIND = "demo-data-step";
/** Alerts a step sends: ~6 operations each, so a step stays well under half the Paid plan's 1,000. */
const DEMO_STEP_ALERTS = 60;
/** The queue door's ledger name for the steps (the request's operation): the last step's entry sums the seed up. */
export const DEMO_OPERATION = "seedDemoData";

const Payload = z.object({
  id: z.string(),
  today: z.iso.datetime(),
  seed: z.number().int().optional(),
  months: z.number().int().optional(),
  step: z.number().int().min(0),
});
type Payload = z.infer<typeof Payload>;

const OUTCOMES = ["created", "duplicate", "quarantined", "ignored"] as const;
const outcomesOf = (job: SlotJob): DemoOutcomes =>
  Object.fromEntries(OUTCOMES.map((k) => [k, progressNum(job, k)])) as DemoOutcomes;

const RUN: StepRun = {
  kind: DEMO_KIND,
  stepKind: DEMO_STEP_KIND,
  event: "demo_data.step_failed",
  failure: "Adding the demo data stopped on an error; empty the journal and try again.",
};

/**
 * POST /setup/demo-data: 403 unless over loopback, 409 when the journal has a row or a seed is
 * going on; else the rules and budget set up here, the alerts queued. Answers the run's status.
 */
export async function startDemoData(
  ctx: ServiceCtx,
  { local, today, seed, months }: { local: boolean; today?: string; seed?: number; months?: number },
): Promise<DemoDataStatus> {
  if (!local) throw new ApiError(403, "Demo data can be added only from this machine (a loopback request)");
  if ((await demoDataStatus(ctx.env, ctx.clock)).status === "running")
    throw conflict("Demo data is being added already");
  if (await hasAnyTransaction(getDb(ctx.env.DB)))
    throw conflict("The journal already has transactions: demo data is for a new one");
  const res = await jobSlot(ctx.env, DEMO_KIND).start(DEMO_KIND, 60 * 60 * 1000);
  if (!res.ok) throw conflict("Demo data is being added already");
  // A given day stands at 20:00 UTC (the evening in North America), as `npm run seed:demo --today` does.
  const at = today ? new Date(`${today}T20:00:00Z`) : ctx.clock();
  const budgetYear = await setUpDemo(ctx, at);
  const params: DemoParams = { today: at, seed, months };
  const next: Payload = { id: res.job.id, today: at.toISOString(), seed, months, step: 0 };
  await afterStep(ctx.env, ctx.clock, RUN, res.job.id, {
    progress: {
      stage: "alerts",
      emails_done: 0,
      emails_total: demoAlertCount(params),
      budget_year: budgetYear,
      next_step: 0,
    },
    next,
  });
  ctx.journal({ resourceId: "demo-data", summary: "started adding the demo household" });
  return demoDataStatus(ctx.env, ctx.clock);
}

/**
 * The queue's "demo-data-step": the next alerts, or (once they are all in) the rest and the
 * summary entry. A redelivered or stale message does nothing; a failure ends the run with its reason.
 */
export async function runDemoStep(ctx: ServiceCtx, { msg }: { msg: QueueMessage }): Promise<boolean> {
  const { env, clock } = ctx;
  const queued = await queuedJob(env, msg, Payload, () => DEMO_KIND);
  if (!queued || progressNum(queued.job, "next_step") !== queued.p.step) return true;
  const { job, p } = queued;
  const params: DemoParams = { today: new Date(p.today), seed: p.seed, months: p.months };
  const stamp = { steps: p.step + 1, next_step: p.step + 1 };
  return runJobStep(env, clock, RUN, job.id, async (): Promise<StepDone> => {
    const outcomes = outcomesOf(job);
    if (job.progress.stage === "alerts") {
      const r = await ingestDemoAlerts(env, params, { step: p.step, perStep: DEMO_STEP_ALERTS });
      for (const k of OUTCOMES) outcomes[k] += r.outcomes[k];
      const stage = r.more ? "alerts" : "statement";
      return {
        progress: { ...outcomes, ...stamp, emails_done: r.done, stage },
        next: { ...p, step: p.step + 1 },
      };
    }
    const rest = await finishDemo(ctx, { params, outcomes });
    const transactions = await countTransactions(getDb(env.DB));
    ctx.journal({ resourceId: "demo-data", summary: `added ${transactions} demo transactions` });
    return {
      progress: { ...outcomes, ...stamp, stage: "done" },
      result: {
        transactions,
        emails: progressNum(job, "emails_total"),
        quarantined: outcomes.quarantined,
        ...rest,
        overrides: DEMO_OVERRIDES.length,
        budget_year: typeof job.progress.budget_year === "number" ? job.progress.budget_year : null,
        recipient: DEMO_RECIPIENT,
      },
    };
  });
}

/** The latest seed: running (alerts sent of all), done (what it wrote), error, or idle. */
export async function demoDataStatus(env: Env, clock: Clock): Promise<DemoDataStatus> {
  const { job, view } = await steppedRun(
    env,
    DEMO_KIND,
    clock(),
    "Adding the demo data stopped making progress.",
  );
  const stage = job?.progress.stage;
  return {
    ...view,
    stage: stage === "alerts" || stage === "statement" || stage === "done" ? stage : null,
    emails_done: progressNum(job, "emails_done"),
    emails_total: progressNum(job, "emails_total"),
    steps: progressNum(job, "steps"),
    result: job?.status === "done" ? (job.result as DemoDataStatus["result"]) : null,
  };
}
