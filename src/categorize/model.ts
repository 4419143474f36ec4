/**
 * The model stage: a forced `categorize_transaction` call constrained to the category list
 * (loadCategories: the stored list, else the defaults).
 * Any failure → Miscellaneous. Transport failures are counted in kv_state 'ai_categorization'
 * ({status, reason, consecutive_errors}); health reads it (degraded after 3 in a row).
 */
import { type AiProvider, asAiError } from "../ai/provider";
import { categorizeTool } from "../ai/tools";
import type { Db } from "../db";
import { type AiState, kvGet, kvPut } from "../db/kv";
import { log } from "../lib/log";
import { loadCategories } from "./categories";
import { type Cents, fromCents } from "../lib/money";

export const AI_STATE_KEY = "ai_categorization" as const;
export const DEGRADED_AFTER = 3;

export type { AiState } from "../db/kv";

/** Next status after one call (pure). Soft failures (refusal, bad JSON) do not break a run. */
export function nextAiState(
  prev: AiState | null,
  outcome: { hard: boolean; reason: string } | null,
): AiState {
  if (outcome === null) return { status: "ok", reason: null, consecutive_errors: 0 };
  if (!outcome.hard) return prev ?? { status: "ok", reason: null, consecutive_errors: 0 };
  const n = (prev?.consecutive_errors ?? 0) + 1;
  return { status: n >= DEGRADED_AFTER ? "degraded" : "ok", reason: outcome.reason, consecutive_errors: n };
}

async function recordAiState(db: Db, outcome: { hard: boolean; reason: string } | null, nowIso: string) {
  try {
    const prev = (await kvGet(db, AI_STATE_KEY))?.value ?? null;
    const next = nextAiState(prev, outcome);
    if (prev && JSON.stringify(prev) === JSON.stringify(next)) return;
    await kvPut(db, AI_STATE_KEY, next, nowIso);
  } catch (err) {
    log("warn", "categorize.ai_state_write_failed", { error: String(err) });
  }
}

export type ModelResult = { category: string } | { category: null; reason: string };

export async function categorizeWithModel(
  db: Db,
  ai: AiProvider,
  tx: { amount: Cents; company: string | null; transactionType: string | null },
  nowIso: string,
): Promise<ModelResult> {
  const categories = await loadCategories(db);
  try {
    const args = await ai.callTool({
      system:
        "You categorize personal bank transactions. Choose the single best category from the allowed list. " +
        "When nothing fits, choose Miscellaneous.",
      user: JSON.stringify({
        // The model speaks decimal amounts.
        amount: fromCents(tx.amount),
        company: tx.company ?? "",
        transaction_type: tx.transactionType ?? "",
      }),
      tool: categorizeTool(categories),
      timeoutMs: 15_000,
    });
    await recordAiState(db, null, nowIso);
    const wanted = typeof args.category === "string" ? args.category.trim().toLowerCase() : "";
    const match = categories.find((c) => c.toLowerCase() === wanted);
    return match ? { category: match } : { category: null, reason: "category_not_in_list" };
  } catch (err) {
    const e = asAiError(err);
    await recordAiState(db, { hard: e.hard, reason: `${e.kind}: ${e.message}` }, nowIso);
    log("warn", "categorize.model_failed", { kind: e.kind, error: e.message });
    return { category: null, reason: `ai_${e.kind}` };
  }
}
