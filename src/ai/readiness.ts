/**
 * What each AI action in the dashboard needs, and whether it can run now: the task's route (from
 * the stored settings and the server's keys, through the same `providerForTask` every call uses),
 * the person's consent switches, and for a local tool whether the bridge runs it. Pure but for the
 * bridge's health, read once by the caller.
 */
import {
  AI_TASKS,
  isCli,
  PROVIDER_WORDS,
  providerForTask,
  TASK_LABELS,
  type AiEnv,
  type AiTask,
  type TaskSettings,
} from "./routing";

export const AI_ACTIONS = [
  "categorization",
  "alert_rescue",
  "receipt_reading",
  "statement_reading",
  "insights",
  "summaries",
] as const;
export type AiAction = (typeof AI_ACTIONS)[number];

/** The consent switches, named as Settings → Intelligence shows them. */
export const CONSENT_WORDS = {
  ai_categorization_enabled: "Categorize with AI",
  ai_extraction_enabled: "Read unknown alerts with AI",
  ai_receipt_parsing_enabled: "Read receipts with AI",
  ai_statement_parsing_enabled: "Read statements with AI",
} as const;
type Consent = keyof typeof CONSENT_WORDS;

const ACTIONS: Record<AiAction, { label: string; task: AiTask; consents: Consent[] }> = {
  categorization: {
    label: "Categorize transactions no rule covers",
    task: "categorization",
    consents: ["ai_categorization_enabled"],
  },
  alert_rescue: {
    label: "Read alert emails no parser knows (AI rescue)",
    task: "categorization",
    consents: ["ai_categorization_enabled", "ai_extraction_enabled"],
  },
  receipt_reading: {
    label: "Read receipts",
    task: "document_parsing",
    consents: ["ai_receipt_parsing_enabled"],
  },
  statement_reading: {
    label: "Read statements no parser knows",
    task: "document_parsing",
    consents: ["ai_statement_parsing_enabled"],
  },
  insights: { label: "Generate briefing", task: "insights", consents: [] },
  summaries: { label: "Summarize days and months", task: "daily_summary", consents: [] },
};

export const SETTINGS_URL = "/settings#intelligence";

/** A task's provider and model, and why it cannot reach a model now (null: it can; consents aside). */
function taskState(env: AiEnv, settings: TaskSettings, task: AiTask, bridge: Record<string, boolean>) {
  const routed = providerForTask(env, settings, task);
  const provider = routed.route.provider;
  let reason = routed.ok ? null : routed.reason;
  if (routed.ok && isCli(provider) && bridge[provider] !== true)
    reason = `${TASK_LABELS[task]}: ${PROVIDER_WORDS[provider]} is chosen, but the model bridge does not answer or has no command for it (see the README).`;
  const model = routed.ok ? routed.model : routed.route.model;
  return { task, provider, provider_label: PROVIDER_WORDS[provider] ?? provider, model, reason };
}

export function taskReadiness(env: AiEnv, settings: TaskSettings, bridge: Record<string, boolean>) {
  return AI_TASKS.map((task) => {
    const { reason, ...state } = taskState(env, settings, task, bridge);
    return { ...state, ready: reason === null, reason };
  });
}

export function readiness(
  env: AiEnv,
  settings: TaskSettings & Partial<Record<Consent, boolean | null>>,
  bridge: Record<string, boolean>,
) {
  return AI_ACTIONS.map((action) => {
    const a = ACTIONS[action];
    const { task, reason: routeReason, ...state } = taskState(env, settings, a.task, bridge);
    const consentWords = a.consents.map((c) => `“${CONSENT_WORDS[c]}”`).join(" and ");
    const needs =
      `A provider for ${TASK_LABELS[task]} under Settings → Intelligence (the hosted model API with a key on ` +
      `this server, or a local tool through the model bridge)${consentWords ? `, and ${consentWords} turned on there` : ""}.`;
    const off = a.consents.filter((c) => settings[c] !== true);
    const reason =
      routeReason ??
      (off.length
        ? `${off.map((c) => `“${CONSENT_WORDS[c]}”`).join(" and ")} ${off.length > 1 ? "are" : "is"} off under Settings → Intelligence.`
        : null);
    return {
      action,
      label: a.label,
      task,
      ...state,
      ready: reason === null,
      reason,
      needs,
      settings_url: SETTINGS_URL,
    };
  });
}
