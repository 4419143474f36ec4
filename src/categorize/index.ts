/**
 * Categorization (SPEC.md order): override resolver tiers 0-2 (always, AI on or off), tier 3
 * fuzzy and the model call only when a provider exists and ai_categorization_enabled; every
 * other path ends at Miscellaneous. The CategoryAudit of every outcome is returned with it.
 * Shared by ingestion, hand entry and the domains that edit overrides, aliases and categories.
 */
import { asAiError } from "../ai/provider";
import type { IngestDeps } from "../ingest/types";
import { log } from "../lib/log";
import type { Cents } from "../lib/money";
import { type CategoryAudit, categoryAudit } from "./audit";
import { FALLBACK_CATEGORY } from "./categories";
import { resolveFuzzy } from "./fuzzy";
import { categorizeWithModel } from "./model";
import { getResolverIndex } from "./resolver";
import { type ResolverHit, resolveDeterministic } from "./rules";

export { type CategoryAudit, categoryAudit } from "./audit";
export { invalidateResolverCache } from "./resolver";

export interface CategorizeInput {
  amount: Cents;
  company: string | null;
  transactionType: string | null;
  /** Overrides only (tiers 0-2), else Miscellaneous: hand-entered rows never go to the model. */
  overridesOnly?: boolean;
}

export interface Categorized {
  category: string;
  audit: CategoryAudit;
}

function fromHit(h: ResolverHit, model: string | null = null): Categorized {
  return {
    category: h.category,
    audit: categoryAudit({
      source: h.source,
      matched_rule: h.matched_rule,
      confidence: h.confidence,
      tier: h.tier,
      model,
    }),
  };
}

/** Miscellaneous, saying why nothing better was found. */
const fallbackCategory = (reason: string, model: string | null = null): Categorized => ({
  category: FALLBACK_CATEGORY,
  audit: categoryAudit({ source: "fallback", model, fallback_reason: reason }),
});

/** The resolver's version stamp is the one the settings batch read (resolverReads), if any. */
export async function categorize(
  deps: Pick<IngestDeps, "db" | "clock" | "ai" | "settings">,
  tx: CategorizeInput,
): Promise<Categorized> {
  const index = await getResolverIndex(deps.db, deps.clock, deps.settings.prefetched?.resolverVersion);
  const hit = resolveDeterministic(index, tx.company);
  if (hit) return fromHit(hit);
  if (tx.overridesOnly) return fallbackCategory("no_override_matched");
  if (!deps.ai) return fallbackCategory("no_ai_client");
  if (!deps.settings.aiCategorizationEnabled) return fallbackCategory("ai_disabled");
  const nowIso = deps.clock().toISOString();
  try {
    const fuzzy = await resolveFuzzy(deps.db, { ai: deps.ai, index, company: tx.company, nowIso });
    if (fuzzy) return fromHit(fuzzy, deps.ai.embeddingModel);
  } catch (err) {
    // Embeddings down: the model call below still gets its chance.
    log("warn", "categorize.fuzzy_failed", { error: asAiError(err).message });
  }
  const result = await categorizeWithModel(deps.db, deps.ai, tx, nowIso);
  if (result.category === null) return fallbackCategory(result.reason, deps.ai.model);
  return { category: result.category, audit: categoryAudit({ source: "ai", model: deps.ai.model }) };
}
