/** Insights rules (pure): derived context parts, the prompt, and what counts as a briefing. */
import type { MerchantIntelligenceResponse } from "../merchants/schemas";

/** SPEC Limits: a briefing is saved only when longer than this many characters. */
export const MIN_BRIEFING_CHARS = 200;
/** SPEC Limits: the insights task's time limit (INSIGHTS_TIMEOUT_SECONDS overrides it). */
export const INSIGHTS_TIMEOUT_SECONDS = 180;

export const isSavable = (text: string) => text.trim().length > MIN_BRIEFING_CHARS;

/** Merchants charging the same amount month after month (the merchant service's `fixed`). */
export function fixedChargesOf(merchants: MerchantIntelligenceResponse["merchants"]) {
  return merchants
    .filter((m) => m.frequency_type === "fixed" && !m.is_churned)
    .map((m) => ({
      company: m.company,
      category: m.category,
      monthly_amount: m.avg_amount,
      months_active: m.months_active,
    }));
}

interface TrendMonth {
  year_month: string;
  by_category: Record<string, { amount: number; count: number }>;
}

/**
 * Categories that come around once a year: seen in at most 2 of the last 24 months, one of them
 * the same calendar month a year before `month` (insurance renewals, memberships, taxes).
 */
export function recurringAnnualOf(history: readonly TrendMonth[], month: string) {
  const seen = new Map<string, { months: string[]; amounts: number[] }>();
  for (const m of history) {
    for (const [category, v] of Object.entries(m.by_category)) {
      if (v.amount <= 0) continue;
      const s = seen.get(category) ?? { months: [], amounts: [] };
      s.months.push(m.year_month);
      s.amounts.push(v.amount);
      seen.set(category, s);
    }
  }
  const calendar = month.slice(5, 7);
  return [...seen.entries()]
    .filter(([, s]) => s.months.length <= 2 && s.months.some((m) => m.slice(5, 7) === calendar))
    .map(([category, s]) => ({
      category,
      typical_amount: Math.max(...s.amounts),
      months_seen: s.months,
      last_seen: s.months[s.months.length - 1]!,
    }));
}

export const SYSTEM_PROMPT = [
  "You write a short monthly spending briefing for one person, in Markdown.",
  "Use only figures that appear in the JSON context you are given; copy amounts as given (you may",
  "round to whole dollars) and do not compute new totals or percentages.",
  "Structure: a one-paragraph overview, then '## What changed', '## Watch', '## Budget' (skip a",
  "section with nothing to say). Be concrete and kind; no financial advice, no tables of raw data.",
  "If the context has a personal memo, take it into account.",
].join(" ");

export function userPrompt(context: unknown): string {
  return `Context (JSON):\n${JSON.stringify(context)}`;
}
