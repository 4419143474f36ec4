/**
 * Insights: start a generation (one at a time, held by the JobSlot "insights"), read its status,
 * list and open saved briefings. The generation itself runs in the queue consumer (job.ts).
 */
import { getDb } from "../../db";
import { storedJson } from "../../db/json";
import { type AiEnv, providerForTask, secondsVar } from "../../ai/routing";
import { jobSlot, steppedRun } from "../../db/job-slot";
import type { ServiceCtx } from "../../lib/context";
import { conflict, notFound, Refused } from "../../lib/errors";
import { getConfig } from "../config/service";
import { savedBriefing, savedOfMonth } from "./queries";
import { INSIGHTS_TIMEOUT_SECONDS } from "./rules";
import { BriefingValidation as BriefingValidationSchema } from "./schemas";
import { statusWord } from "../../db/job-slot-state";

export const INSIGHTS_KIND = "insights";
/** How long past its limit a job may stay "running" before a status read calls it failed. */
const GRACE_MS = 15_000;

export const insightsLimitMs = (env: AiEnv) =>
  secondsVar(env.INSIGHTS_TIMEOUT_SECONDS, INSIGHTS_TIMEOUT_SECONDS);
export const timeoutMessage = (ms: number) =>
  `The briefing took longer than ${Math.round(ms / 1000)} s and was stopped; nothing was saved.`;

export async function startInsights(ctx: ServiceCtx, month: string) {
  const env = ctx.env as AiEnv;
  const routed = providerForTask(env, await getConfig(ctx), "insights");
  // Not set up (off, no key, no bridge) is the person's configuration, never a server fault: 422.
  if (!routed.ok) throw new Refused(routed.reason, "AI_NOT_CONFIGURED");
  const limit = insightsLimitMs(env);
  const slot = jobSlot(env, INSIGHTS_KIND);
  const res = await slot.start(INSIGHTS_KIND, limit + GRACE_MS);
  if (!res.ok) {
    throw conflict(
      `A briefing for ${res.job.progress.month ?? "a month"} is already being written (started ${res.job.started_at}); wait for it to finish.`,
    );
  }
  const id = res.job.id;
  await slot.progress(id, { month, phase: "queued", limit_seconds: limit / 1000 });
  try {
    await env.JOBS.send({ type: "job", kind: INSIGHTS_KIND, payload: { task_id: id, month } });
  } catch (err) {
    await slot.complete(id, { error: "The job queue refused the task; try again." });
    throw err;
  }
  return { status: "running" as const, month, task_id: id };
}

/** The slot's job as the status response; a job long past its limit is failed here, never stuck. */
export async function insightsStatus(ctx: ServiceCtx) {
  const limit = insightsLimitMs(ctx.env as AiEnv);
  const { job } = await steppedRun(ctx.env, INSIGHTS_KIND, ctx.clock(), timeoutMessage(limit), {
    staleMs: limit + GRACE_MS,
  });
  const str = (v: unknown) => (typeof v === "string" ? v : null);
  if (!job) return { status: "idle" as const, month: null, started_at: null, error: null, task_id: null };
  return {
    status: statusWord(job),
    month: str(job.progress.month),
    started_at: job.started_at,
    finished_at: job.finished_at,
    error: job.error,
    task_id: job.id,
    phase: str(job.progress.phase),
    insight_id: str(job.result?.id),
  };
}

export async function listSaved(ctx: ServiceCtx, month: string) {
  const { user_id } = await getConfig(ctx);
  const rows = await savedOfMonth(getDb(ctx.env.DB), user_id, month);
  const items = rows.map((r) => ({
    id: r.id,
    month: r.month,
    generated_at: r.generated_at,
    figures_ok: parseValidation(r.validation)?.ok ?? null,
  }));
  return { items, count: items.length };
}

export async function getSaved(ctx: ServiceCtx, { id, month }: { id: string; month: string }) {
  const { user_id } = await getConfig(ctx);
  const row = await savedBriefing(getDb(ctx.env.DB), id, user_id, month);
  if (!row) throw notFound("Saved briefing");
  return {
    id: row.id,
    month: row.month,
    generated_at: row.generated_at,
    content: row.content,
    validation: parseValidation(row.validation),
  };
}

/** insight_briefings.validation; an unreadable one is shown as "not checked" (logged). */
const parseValidation = storedJson("insight_briefings.validation", BriefingValidationSchema.nullable(), {
  value: () => null,
});
