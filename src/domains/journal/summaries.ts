import { type AiEnv, providerForTask, secondsVar } from "../../ai/routing";
import { getDb } from "../../db";
import { jobSlot, steppedRun } from "../../db/job-slot";
import type { ServiceCtx } from "../../lib/context";
import { conflict, Refused } from "../../lib/errors";
import { getConfig } from "../config/service";
import { monthToSummarize } from "./queries";
import { DAY_SUMMARY_TIMEOUT_SECONDS, daysToSummarize } from "./summaries-rules";
import { statusWord } from "../../db/job-slot-state";

export const SUMMARIES_KIND = "day-summaries";
const GRACE_MS = 15_000;

export const summariesLimitMs = (env: AiEnv) =>
  secondsVar(env.DAY_SUMMARY_TIMEOUT_SECONDS, DAY_SUMMARY_TIMEOUT_SECONDS);

interface StartInput {
  month: string;
  dates?: string[] | null | undefined;
  force?: boolean | undefined;
}

export async function startDaySummaries(ctx: ServiceCtx, input: StartInput) {
  const env = ctx.env as AiEnv;
  const cfg = await getConfig(ctx);
  const routed = providerForTask(env, cfg, "daily_summary");
  // Not set up (off, no key, no bridge) is the person's configuration, never a server fault: 422.
  if (!routed.ok) throw new Refused(routed.reason, "AI_NOT_CONFIGURED");
  const db = getDb(env.DB);
  const { lines, done } = await monthToSummarize(db, cfg.user_id, input.month);
  const days = daysToSummarize(Object.keys(lines), done, { only: input.dates, force: input.force });
  const slot = jobSlot(env, SUMMARIES_KIND);
  const current = await slot.status();
  if (current?.status === "running" && !isPastLimit(ctx, current.started_at)) throw busy(current.progress);
  if (days.length === 0) return { status: "idle" as const, month: input.month, dates_queued: 0 };
  const res = await slot.start(SUMMARIES_KIND, summariesLimitMs(env) + GRACE_MS);
  if (!res.ok) throw busy(res.job.progress);
  const id = res.job.id;
  await slot.progress(id, { month: input.month, days, total: days.length, completed: 0 });
  try {
    await env.JOBS.send({
      type: "job",
      kind: SUMMARIES_KIND,
      payload: { task_id: id, month: input.month, days },
    });
  } catch (err) {
    await slot.complete(id, { error: "The job queue refused the task; try again." });
    throw err;
  }
  return { status: "running" as const, month: input.month, dates_queued: days.length, task_id: id };
}

const busy = (p: Record<string, unknown>) =>
  conflict(
    `Day summaries for ${p.month ?? "a month"} are already being written (${p.completed ?? 0} of ${p.total ?? "?"} days done); wait for that job to finish.`,
  );

function isPastLimit(ctx: ServiceCtx, startedAt: string): boolean {
  return ctx.clock().getTime() - Date.parse(startedAt) > summariesLimitMs(ctx.env as AiEnv) + GRACE_MS;
}

export async function daySummaryStatus(ctx: ServiceCtx) {
  const limit = summariesLimitMs(ctx.env as AiEnv) + GRACE_MS;
  const stopped = "The job ran past its time limit and was stopped.";
  const { job } = await steppedRun(ctx.env, SUMMARIES_KIND, ctx.clock(), stopped, { staleMs: limit });
  if (!job)
    return { status: "idle" as const, month: null, total: 0, completed: 0, error: null, task_id: null };
  const p = job.progress;
  return {
    status: statusWord(job),
    month: typeof p.month === "string" ? p.month : null,
    total: typeof p.total === "number" ? p.total : 0,
    completed: typeof p.completed === "number" ? p.completed : 0,
    error: job.error,
    task_id: job.id,
  };
}
