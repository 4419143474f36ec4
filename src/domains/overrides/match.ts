/**
 * Which override would apply to a company and by which tier (the add-rule preview), and the
 * overrides that collapse to one normalized key. Tiers 0-2 use the categorizer's own index;
 * fuzzy candidates need an embedding provider and are skipped without one.
 */
import { aiFor } from "../../ai/routing";
import type { AiProvider } from "../../ai/provider";
import { embedAll } from "../../categorize/fuzzy";
import { normalizeMerchant } from "../../categorize/normalize";
import { buildIndex } from "../../categorize/rules";
import { getDb } from "../../db";
import { getConfig } from "../config/service";
import { loadList, loadLists } from "../../db/lists";
import type { ServiceCtx } from "../../lib/context";
import { log } from "../../lib/log";
import { ALIASES } from "../merchant-aliases/queries";
import { historyCorpus, OVERRIDES, type OverrideEntry } from "./queries";
import {
  type CorpusItem,
  deterministicCandidates,
  duplicateGroups,
  fuzzyCandidates,
  MATCH_CANDIDATE_LIMIT,
} from "./rules";
import type { OverrideMatchCandidate } from "./schemas";

interface FuzzyInput {
  ai: AiProvider;
  company: string;
  entries: OverrideEntry[];
  minScore: number;
  exclude: Set<string>;
}

async function fuzzy(
  ctx: ServiceCtx,
  { ai, company, entries, minScore, exclude }: FuzzyInput,
): Promise<OverrideMatchCandidate[]> {
  const text = (s: string) => normalizeMerchant(s) || s.toLowerCase();
  try {
    const vectorOf = await embedAll(
      getDb(ctx.env.DB),
      ai,
      [text(company), ...entries.map((e) => text(e.company))],
      ctx.clock().toISOString(),
    );
    const corpus: CorpusItem[] = entries.map((e) => ({
      rule: e.company,
      category: e.category,
      vector: vectorOf(text(e.company)),
    }));
    return fuzzyCandidates(vectorOf(text(company)), corpus, minScore, exclude);
  } catch (err) {
    log("warn", "overrides.match_fuzzy_failed", { error: String(err) });
    return [];
  }
}

export async function matchOverride(
  ctx: ServiceCtx,
  {
    input,
    ai,
  }: { input: { company: string; include_history: boolean; min_score: number }; ai?: AiProvider | null },
) {
  // Fuzzy candidates embed the company: only when categorization is routed to a provider.
  if (ai === undefined) ai = aiFor(ctx.env, await getConfig(ctx), "categorization", { maxRetries: 1 });
  const [overrides, aliases] = await loadLists(ctx.env, [OVERRIDES, ALIASES]);
  const candidates = deterministicCandidates(buildIndex(overrides.items, aliases.items), input.company);
  if (ai && candidates.length < MATCH_CANDIDATE_LIMIT) {
    const corpus = input.include_history
      ? [...overrides.items, ...(await historyCorpus(getDb(ctx.env.DB)))]
      : overrides.items;
    const seen = new Set(candidates.map((c) => c.matched_rule.toLowerCase()));
    const fuzzyInput = {
      ai,
      company: input.company,
      entries: corpus,
      minScore: input.min_score,
      exclude: seen,
    };
    candidates.push(...(await fuzzy(ctx, fuzzyInput)));
  }
  const top = candidates[0];
  return {
    category: top?.category ?? null,
    matched_rule: top?.matched_rule ?? null,
    confidence: top?.confidence ?? null,
    tier: top?.tier ?? null,
    candidates: candidates.slice(0, MATCH_CANDIDATE_LIMIT),
  };
}

export async function listOverrideDuplicates(ctx: Pick<ServiceCtx, "env">) {
  const { items } = await loadList(ctx.env, OVERRIDES);
  const groups = duplicateGroups(items);
  return { groups, count: groups.length };
}
