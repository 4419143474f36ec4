/**
 * Pure override rules: suggestion keys and selection, duplicate groups, match candidates.
 * Normalization and tier lookups reuse the categorizer's own (src/categorize), so what
 * these report is exactly what ingestion would do.
 */
import { normalizeMerchant } from "../../categorize/normalize";
import { aliasKeyFn, cosine, type ResolverIndex } from "../../categorize/rules";
import type { OverrideEntry } from "./queries";
import type { OverrideDuplicateGroup, OverrideMatchCandidate, OverrideSuggestion } from "./schemas";

const SUGGESTION_MIN_CORRECTIONS = 2;
export const MATCH_CANDIDATE_LIMIT = 5;

/** Dismissals are kept under `company_lower|category_lower`. */
export function dismissKey(company: string, category: string): string {
  return `${company.trim().toLowerCase()}|${category.trim().toLowerCase()}`;
}

/** `YYYY.MM.01` of the first month of a window of `months` months ending with now's month (UTC). */
export function windowStartPrefix(now: Date, months: number): string {
  const d = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - (months - 1), 1));
  return `${d.getUTCFullYear()}.${String(d.getUTCMonth() + 1).padStart(2, "0")}.01`;
}

export interface Correction {
  company: string;
  category: string;
  n: number;
  last_corrected: string;
}

export interface SuggestionFilters {
  /** The category the overrides already give this company (any tier), else null. */
  resolvesTo(company: string): string | null;
  /** When this suggestion key was dismissed, else undefined. */
  dismissedAt(key: string): string | undefined;
  /** The list's spelling of a category. */
  display(category: string): string;
}

const later = (a: string, b: string) => (Date.parse(a) || 0) > (Date.parse(b) || 0);

/**
 * One suggestion per company whose manual corrections agree: the leading category has at least
 * 2 corrections and more than all other categories together. Hidden when the overrides already
 * give that category, or when dismissed and no correction arrived since the dismissal.
 */
export function selectSuggestions(corrections: Correction[], f: SuggestionFilters): OverrideSuggestion[] {
  const byCompany = new Map<string, Map<string, Correction>>();
  for (const c of corrections) {
    const cats = byCompany.get(c.company.trim().toLowerCase()) ?? new Map<string, Correction>();
    const key = c.category.toLowerCase();
    const prev = cats.get(key);
    cats.set(key, {
      company: prev && prev.n >= c.n ? prev.company : c.company.trim(),
      category: prev?.category ?? c.category,
      n: (prev?.n ?? 0) + c.n,
      last_corrected:
        prev && later(prev.last_corrected, c.last_corrected) ? prev.last_corrected : c.last_corrected,
    });
    byCompany.set(c.company.trim().toLowerCase(), cats);
  }
  const out: OverrideSuggestion[] = [];
  for (const cats of byCompany.values()) {
    const ranked = [...cats.values()].sort((a, b) => b.n - a.n);
    const top = ranked[0];
    const others = ranked.slice(1).reduce((s, c) => s + c.n, 0);
    if (!top || top.n < SUGGESTION_MIN_CORRECTIONS || top.n <= others) continue;
    const category = f.display(top.category);
    if (f.resolvesTo(top.company)?.toLowerCase() === category.toLowerCase()) continue;
    const dismissed = f.dismissedAt(dismissKey(top.company, category));
    if (dismissed !== undefined && !later(top.last_corrected, dismissed)) continue;
    out.push({
      company: top.company,
      suggested_category: category,
      correction_count: top.n,
      last_corrected: top.last_corrected,
    });
  }
  return out.sort(
    (a, b) =>
      b.correction_count - a.correction_count ||
      (Date.parse(b.last_corrected) || 0) - (Date.parse(a.last_corrected) || 0) ||
      a.company.localeCompare(b.company),
  );
}

/** Overrides whose keys collapse to one normalized key (tier 1 sees them as one). */
export function duplicateGroups(overrides: OverrideEntry[]): OverrideDuplicateGroup[] {
  const groups = new Map<string, OverrideEntry[]>();
  for (const o of overrides) {
    const k = normalizeMerchant(o.company);
    if (k) groups.set(k, [...(groups.get(k) ?? []), o]);
  }
  return [...groups.entries()]
    .filter(([, members]) => members.length > 1)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([normalized_key, members]) => {
      const sorted = [...members].sort((a, b) => a.company.localeCompare(b.company));
      const cats = new Set(sorted.map((m) => m.category.toLowerCase()));
      return {
        normalized_key,
        members: sorted.map((m) => ({ company: m.company, category: m.category })),
        unanimous_category: cats.size === 1 ? (sorted[0]?.category ?? null) : null,
      };
    });
}

/** Deterministic candidates (tiers 0-2, the resolver's maps), best tier first, one per rule. */
export function deterministicCandidates(index: ResolverIndex, company: string): OverrideMatchCandidate[] {
  const name = company.trim();
  const norm = normalizeMerchant(name);
  const hits = [
    { tier: "exact" as const, e: name ? index.exact.get(name.toLowerCase()) : undefined },
    { tier: "normalized" as const, e: norm ? index.normalized.get(norm) : undefined },
    {
      tier: "alias" as const,
      e: index.alias && norm ? index.alias.get(aliasKeyFn(index.aliasOf)(name)) : undefined,
    },
  ];
  const out: OverrideMatchCandidate[] = [];
  for (const { tier, e } of hits) {
    if (e && !out.some((c) => c.matched_rule.toLowerCase() === e.key.toLowerCase())) {
      out.push({ category: e.category, matched_rule: e.key, confidence: 1, tier });
    }
  }
  return out;
}

export interface CorpusItem {
  rule: string;
  category: string;
  vector: number[];
}

/** Fuzzy candidates at or above `minScore`, best first, skipping rules already listed. */
export function fuzzyCandidates(
  target: number[],
  corpus: CorpusItem[],
  minScore: number,
  exclude: ReadonlySet<string>,
): OverrideMatchCandidate[] {
  const best = new Map<string, OverrideMatchCandidate>();
  for (const item of corpus) {
    const key = item.rule.toLowerCase();
    if (exclude.has(key)) continue;
    const score = Math.round(cosine(target, item.vector) * 10_000) / 10_000;
    if (score < minScore || (best.get(key)?.confidence ?? -1) >= score) continue;
    best.set(key, { category: item.category, matched_rule: item.rule, confidence: score, tier: "fuzzy" });
  }
  return [...best.values()].sort((a, b) => b.confidence - a.confidence);
}

/** Members of a consolidation that do not belong (absent from the overrides, or another key). */
export function consolidationProblems(
  overrides: OverrideEntry[],
  members: string[],
  normalizedKey: string,
): { missing: string[]; foreign: string[] } {
  const present = new Set(overrides.map((o) => o.company.toLowerCase()));
  return {
    missing: members.filter((m) => !present.has(m.toLowerCase())),
    foreign: members.filter((m) => normalizeMerchant(m) !== normalizedKey.trim().toLowerCase()),
  };
}
