/**
 * The insights queue job: gather the context, ask the routed provider for a briefing within the
 * time limit, check its figures, save it when it is long enough. Never throws: every outcome ends
 * the slot's job (done or failed with a reason), so a retry cannot run the model twice.
 */
import { z } from "zod";
import { type AiEnv, providerForTask } from "../../ai/routing";
import { AiError, aiErrorWords } from "../../ai/provider";
import { getDb } from "../../db";
import type { Env } from "../../env";
import type { QueueMessage } from "../../jobs/messages";
import { jobSlot } from "../../db/job-slot";
import { jobCtx } from "../activity/journal";
import { type Clock, systemClock } from "../../lib/clock";
import { log } from "../../lib/log";
import { getConfig } from "../config/service";
import { buildContext } from "./context";
import { validateBriefing } from "./figures";
import { insertBriefing } from "./queries";
import { isSavable, MIN_BRIEFING_CHARS, SYSTEM_PROMPT, userPrompt } from "./rules";
import { INSIGHTS_KIND, insightsLimitMs, timeoutMessage } from "./service";

const Payload = z.object({ task_id: z.string(), month: z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/) });

class Deadline extends Error {}

/** Resolves with `p`, or rejects with Deadline (and aborts) once `ms` have passed. */
function within<T>(p: Promise<T>, ms: number, abort: AbortController): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => {
        abort.abort();
        reject(new Deadline());
      },
      Math.max(0, ms),
    );
  });
  return Promise.race([p, timeout]).finally(() => timer !== undefined && clearTimeout(timer));
}

export async function runInsightsJob(env: Env, msg: QueueMessage, clock: Clock = systemClock): Promise<void> {
  const parsed = Payload.safeParse("payload" in msg ? msg.payload : null);
  if (!parsed.success) return;
  const { task_id, month } = parsed.data;
  const slot = jobSlot(env, INSIGHTS_KIND);
  const job = await slot.status();
  // A redelivered or superseded message: the slot already moved on.
  if (!job || job.id !== task_id || job.status !== "running") return;
  const limit = insightsLimitMs(env as AiEnv);
  const remaining = Date.parse(job.started_at) + limit - clock().getTime();
  const fail = (error: string) => slot.complete(task_id, { error });
  if (remaining <= 0) return void (await fail(timeoutMessage(limit)));

  const { ctx } = jobCtx(env, clock, INSIGHTS_KIND);
  const abort = new AbortController();
  try {
    await slot.progress(task_id, { phase: "context" });
    const cfg = await getConfig(ctx);
    const routed = providerForTask(env as AiEnv, cfg, "insights", { timeoutMs: remaining });
    if (!routed.ok) return void (await fail(routed.reason));
    const context = await buildContext(ctx, month);
    await slot.progress(task_id, { phase: "writing", provider: routed.route.provider, model: routed.model });
    const left = Date.parse(job.started_at) + limit - clock().getTime();
    const text = await within(
      routed.provider.generateText({
        system: SYSTEM_PROMPT,
        user: userPrompt(context),
        effort: routed.route.effort,
        timeoutMs: Math.max(1, left),
        signal: abort.signal,
      }),
      left,
      abort,
    );
    if (!isSavable(text)) {
      return void (await fail(
        `The model answered with ${text.trim().length} characters; a briefing needs more than ${MIN_BRIEFING_CHARS}, so nothing was saved.`,
      ));
    }
    await slot.progress(task_id, { phase: "checking" });
    const validation = validateBriefing(text, context);
    const id = `ins_${crypto.randomUUID().replace(/-/g, "").slice(0, 16)}`;
    await insertBriefing(getDb(env.DB), {
      id,
      user_id: cfg.user_id,
      month,
      generated_at: clock().toISOString(),
      content: text,
      validation,
      provider: routed.route.provider,
      model: routed.model,
    });
    await slot.complete(task_id, { result: { id, month, figures_ok: validation.ok } });
  } catch (err) {
    const timedOut = err instanceof Deadline || (err instanceof AiError && err.kind === "timeout");
    const reason = timedOut
      ? timeoutMessage(limit)
      : err instanceof AiError
        ? `The model could not write the briefing: ${aiErrorWords(err)}.`
        : "The briefing failed unexpectedly; nothing was saved.";
    log("warn", "insights.failed", { task_id, reason: timedOut ? "timeout" : String(err) });
    await fail(reason);
  }
}
