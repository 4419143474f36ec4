/**
 * Per-task provider routing: each AI task names its provider, model and reasoning effort in the
 * settings (`<task>_provider`, ...; the fuzzy tier's embeddings and the alert rescue follow
 * `categorization_*`, statements and receipts `document_parsing_*`). `hosted` is the
 * OpenAI-compatible API (MODEL_API_KEY / MODEL_BASE_URL); `cli_a/b/c` are command-line tools on the
 * person's computer behind the local model bridge (MODEL_BRIDGE_URL, the same chat-completions
 * protocol); `disabled` sends nothing.
 */
import type { Env } from "../env";
import { HostedProvider } from "./hosted";
import type { AiProvider } from "./provider";

export const AI_TASKS = ["categorization", "daily_summary", "document_parsing", "insights"] as const;
export type AiTask = (typeof AI_TASKS)[number];

export const TASK_LABELS: Record<AiTask, string> = {
  categorization: "Categorization",
  daily_summary: "Day summaries",
  document_parsing: "Document parsing",
  insights: "Insights",
};

/** The settings fields routing reads (a structural slice of the app configuration). */
export type TaskSettings = {
  [K in `${AiTask}_${"provider" | "model" | "reasoning_effort"}`]?: string | null;
};

/** Variables of this layer (documented in wrangler.toml's comment and the README's AI section). */
export type AiEnv = Env;

export interface TaskRoute {
  task: AiTask;
  provider: string;
  model: string | null;
  effort: string | null;
}

export function routeOf(settings: TaskSettings, task: AiTask): TaskRoute {
  return {
    task,
    provider: settings[`${task}_provider`] ?? "disabled",
    model: settings[`${task}_model`]?.trim() || null,
    effort: settings[`${task}_reasoning_effort`] ?? null,
  };
}

export const isCli = (provider: string) => /^cli_[abc]$/.test(provider);

export type Routed =
  | { ok: true; provider: AiProvider; route: TaskRoute; model: string }
  | { ok: false; route: TaskRoute; reason: string; missingKey: boolean };

/** Words for each provider value, as the dashboard shows them. */
export const PROVIDER_WORDS: Record<string, string> = {
  disabled: "Off",
  hosted: "Hosted model API",
  cli_a: "Command-line model A",
  cli_b: "Command-line model B",
  cli_c: "Command-line model C",
};

/**
 * THE entry point of every model call: the provider a task is routed to by the stored settings,
 * or the reason (in words) it cannot run. Nothing else in the codebase builds a model client.
 * `timeoutMs` is the per-request ceiling: long generations pass their job limit so the client
 * never cuts them short.
 */
export function providerForTask(
  env: AiEnv,
  settings: TaskSettings,
  task: AiTask,
  opts: { timeoutMs?: number; maxRetries?: 0 | 1 } = {},
): Routed {
  const route = routeOf(settings, task);
  const label = TASK_LABELS[task];
  const fail = (reason: string, missingKey = false): Routed => ({ ok: false, route, reason, missingKey });
  const common = { timeoutMs: opts.timeoutMs, maxRetries: opts.maxRetries ?? 0, effort: route.effort };
  if (route.provider === "disabled") {
    const verb = task === "daily_summary" || task === "insights" ? "are" : "is";
    return fail(`${label} ${verb} turned off: choose a provider under Settings → Intelligence.`);
  }
  if (route.provider === "hosted") {
    const apiKey = env.MODEL_API_KEY?.trim();
    if (!apiKey)
      return fail(
        `${label}: the hosted model API is chosen, but this server has no model API key (MODEL_API_KEY; see the README).`,
        true,
      );
    const model = route.model || env.MODEL_NAME?.trim() || "gpt-4o-mini";
    const provider = new HostedProvider({
      ...common,
      apiKey,
      baseURL: env.MODEL_BASE_URL?.trim() || undefined,
      model,
      embeddingModel: env.EMBEDDING_MODEL?.trim() || undefined,
    });
    return { ok: true, provider, route, model };
  }
  if (isCli(route.provider)) {
    const bridge = env.MODEL_BRIDGE_URL?.trim();
    const token = env.MODEL_BRIDGE_TOKEN?.trim();
    const words = PROVIDER_WORDS[route.provider];
    if (!bridge || !token) {
      return fail(
        `${label}: ${words} runs on your computer through the model bridge; set MODEL_BRIDGE_URL and MODEL_BRIDGE_TOKEN (see the README).`,
      );
    }
    // The bridge picks the command by the model field: "<provider>" or "<provider>:<model>".
    const model = route.model ? `${route.provider}:${route.model}` : route.provider;
    const provider = new HostedProvider({
      ...common,
      // The bridge runs a command-line tool: no reasoning-effort field, no embeddings.
      effort: null,
      reasoning: false,
      embeddings: false,
      apiKey: token,
      baseURL: `${bridge.replace(/\/+$/, "")}/v1`,
      model,
    });
    return { ok: true, provider, route, model };
  }
  return fail(`${label}: unknown provider ${route.provider}.`);
}

/** The task's provider, or null when it is off or cannot run (the caller falls back without AI). */
export function aiFor(...args: Parameters<typeof providerForTask>): AiProvider | null {
  const routed = providerForTask(...args);
  return routed.ok ? routed.provider : null;
}

/** A positive number of seconds from a variable, else the default (both in ms). */
export function secondsVar(value: string | undefined, defaultSeconds: number): number {
  const n = Number(value);
  return (Number.isFinite(n) && n > 0 ? n : defaultSeconds) * 1000;
}

/**
 * Which CLI providers the model bridge can run (its GET /health), for the config's
 * `cli_*_available` flags. No bridge configured or no answer within 2 s: none.
 */
export async function bridgeAvailability(env: AiEnv): Promise<Record<"cli_a" | "cli_b" | "cli_c", boolean>> {
  const none = { cli_a: false, cli_b: false, cli_c: false };
  const bridge = env.MODEL_BRIDGE_URL?.trim();
  if (!bridge || !env.MODEL_BRIDGE_TOKEN?.trim()) return none;
  try {
    const res = await fetch(`${bridge.replace(/\/+$/, "")}/health`, {
      headers: { authorization: `Bearer ${env.MODEL_BRIDGE_TOKEN?.trim() ?? ""}` },
      signal: AbortSignal.timeout(2000),
    });
    if (!res.ok) return none;
    const body = (await res.json()) as { providers?: Record<string, { available?: boolean }> };
    const available = (p: keyof typeof none) => body.providers?.[p]?.available === true;
    return { cli_a: available("cli_a"), cli_b: available("cli_b"), cli_c: available("cli_c") };
  } catch {
    return none;
  }
}
