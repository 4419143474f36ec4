/**
 * The day-summaries queue job and the every-minute duty that writes today's summary at the
 * configured local time. `hosted` gets one call per day; the CLI providers one batched prompt
 * (SPEC: each start of a local tool is slow). Each summary is saved as soon as it exists, so a
 * job stopped halfway keeps what it wrote. The job never throws (no retry runs the model twice).
 */
import { calendarDate } from "../../lib/calendar";
import { z } from "zod";
import { AiError, aiErrorWords } from "../../ai/provider";
import { type AiEnv, isCli, providerForTask } from "../../ai/routing";
import { getDb } from "../../db";
import type { Env } from "../../env";
import type { QueueMessage } from "../../jobs/messages";
import { jobSlot } from "../../db/job-slot";
import { jobCtx } from "../activity/journal";
import { type Clock, systemClock } from "../../lib/clock";
import { log } from "../../lib/log";
import { getConfig } from "../config/service";
import { dayLines, saveDaySummary } from "./queries";
import { SUMMARIES_KIND, startDaySummaries, summariesLimitMs } from "./summaries";
import {
  BATCH_SYSTEM,
  batchPrompt,
  cleanSummary,
  DAY_SYSTEM,
  dayPrompt,
  parseBatch,
  summaryDue,
} from "./summaries-rules";

const Payload = z.object({
  task_id: z.string(),
  month: z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/),
  days: z.array(calendarDate()),
});

export async function runDaySummariesJob(
  env: Env,
  msg: QueueMessage,
  clock: Clock = systemClock,
): Promise<void> {
  const parsed = Payload.safeParse("payload" in msg ? msg.payload : null);
  if (!parsed.success) return;
  const { task_id, month, days } = parsed.data;
  const slot = jobSlot(env, SUMMARIES_KIND);
  const job = await slot.status();
  if (!job || job.id !== task_id || job.status !== "running") return;
  const deadline = Date.parse(job.started_at) + summariesLimitMs(env as AiEnv);
  const ctx = { env, clock };
  let completed = 0;
  try {
    const cfg = await getConfig(ctx);
    const routed = providerForTask(env as AiEnv, cfg, "daily_summary", {
      timeoutMs: Math.max(1, deadline - clock().getTime()),
    });
    if (!routed.ok) return void (await slot.complete(task_id, { error: routed.reason }));
    const db = getDb(env.DB);
    const lines = await dayLines(db, month);
    const save = async (day: string, summary: string) => {
      const row = {
        user_id: cfg.user_id,
        day,
        summary,
        provider: routed.route.provider,
        model: routed.model,
        created_at: clock().toISOString(),
      };
      await saveDaySummary(db, row);
      completed++;
      await slot.progress(task_id, { completed });
    };
    const ask = (system: string, user: string) =>
      routed.provider.generateText({
        system,
        user,
        effort: routed.route.effort,
        timeoutMs: Math.max(1, deadline - clock().getTime()),
      });
    const todo = days.filter((d) => lines[d]?.length);
    if (isCli(routed.route.provider)) {
      const answer = await ask(
        BATCH_SYSTEM,
        batchPrompt(Object.fromEntries(todo.map((d) => [d, lines[d]!]))),
      );
      for (const [day, summary] of Object.entries(parseBatch(answer, todo))) await save(day, summary);
    } else {
      for (const day of todo) {
        if (clock().getTime() >= deadline) throw new AiError("timeout", "time limit reached");
        const summary = cleanSummary(await ask(DAY_SYSTEM, dayPrompt(day, lines[day]!)));
        if (summary) await save(day, summary);
      }
    }
    const missed = todo.length - completed;
    await slot.complete(
      task_id,
      missed > 0
        ? {
            error: `The model gave no usable summary for ${missed} of ${todo.length} days; press again to retry them.`,
          }
        : { result: { completed } },
    );
  } catch (err) {
    const reason =
      err instanceof AiError && err.kind === "timeout"
        ? `The job ran past its time limit after ${completed} of ${days.length} days; press again for the rest.`
        : err instanceof AiError
          ? `The model failed after ${completed} of ${days.length} days: ${aiErrorWords(err)}.`
          : "Day summaries failed unexpectedly.";
    log("warn", "day_summaries.failed", { task_id, error: String(err) });
    await slot.complete(task_id, { error: reason });
  }
}

/** Every minute: with daily summaries on, summarize today at the configured local time. */
export async function dailySummaryDuty(env: Env, clock: Clock): Promise<void> {
  const { ctx } = jobCtx(env, clock, "summaries.daily");
  const cfg = await getConfig(ctx);
  if (!cfg.enable_daily_summaries || cfg.daily_summary_provider === "disabled") return;
  const { due, date } = summaryDue(clock(), cfg.timezone, cfg.daily_summary_schedule_time);
  if (!due) return;
  try {
    const res = await startDaySummaries(ctx, { month: date.slice(0, 7), dates: [date] });
    log("info", "day_summaries.scheduled", { date, queued: res.dates_queued });
  } catch (err) {
    // Busy (a person pressed Summarize month) or misconfigured: the next day tries again.
    log("warn", "day_summaries.scheduled_skipped", {
      date,
      reason: err instanceof Error ? err.message : String(err),
    });
  }
}
