/**
 * Pure ignore-rule logic. A rule matches a company the way an override key does (resolver
 * tiers 0-2: case-insensitive equality, normalized equality, alias-resolved equality), so a
 * rule for "NETFLIX" also pins "Netflix.com #123".
 */
import { type AliasRow, buildIndex, resolveDeterministic } from "../../categorize/rules";
import type { CompanyCount } from "./queries";
import type { IgnoreRuleApplyResult, IgnoreRuleSuggestion } from "./schemas";

const SUGGESTION_MIN_TRANSACTIONS = 3;
const SUGGESTION_MIN_SHARE = 0.6;

export type IgnoreMatcher = (company: string | null | undefined) => string | null;

/** A matcher returning the pattern that pins `company`, or null. */
export function ignoreMatcher(patterns: string[], aliases: AliasRow[] = []): IgnoreMatcher {
  if (patterns.length === 0) return () => null;
  const index = buildIndex(
    patterns.map((p) => ({ company: p, category: "ignored" })),
    aliases,
  );
  return (company) => resolveDeterministic(index, company ?? null)?.matched_rule ?? null;
}

interface ApplyPlan {
  results: IgnoreRuleApplyResult[];
  /** Companies whose open rows flip to Ignored. */
  companies: string[];
}

/** Per rule: rows it fires on and rows it flips (a row flipped by an earlier rule counts once). */
export function planApply(patterns: string[], counts: CompanyCount[], aliases: AliasRow[] = []): ApplyPlan {
  const flipped = new Set<string>();
  const results = patterns.map((pattern) => {
    const matches = ignoreMatcher([pattern], aliases);
    let matched = 0;
    let updated = 0;
    for (const c of counts) {
      if (!matches(c.company)) continue;
      matched += c.total;
      if (!flipped.has(c.company)) {
        updated += c.n;
        if (c.n > 0) flipped.add(c.company);
      }
    }
    return { pattern, matched, updated };
  });
  return { results, companies: [...flipped] };
}

/**
 * Merchants (case-folded) with at least 3 rows in the window of which at least 60% are ignored,
 * not already pinned by a rule and not dismissed; most ignored first.
 */
export function selectIgnoreSuggestions(
  counts: CompanyCount[],
  pinned: IgnoreMatcher,
  dismissed: ReadonlySet<string>,
): IgnoreRuleSuggestion[] {
  const byMerchant = new Map<string, { merchant: string; best: number; total: number; ignored: number }>();
  for (const c of counts) {
    const key = c.company.toLowerCase();
    const m = byMerchant.get(key) ?? { merchant: c.company, best: 0, total: 0, ignored: 0 };
    if (c.total > m.best) Object.assign(m, { merchant: c.company, best: c.total });
    m.total += c.total;
    m.ignored += c.n;
    byMerchant.set(key, m);
  }
  return [...byMerchant.entries()]
    .filter(([key, m]) => !dismissed.has(key) && pinned(m.merchant) === null)
    .filter(([, m]) => m.total >= SUGGESTION_MIN_TRANSACTIONS && m.ignored / m.total >= SUGGESTION_MIN_SHARE)
    .map(([, m]) => ({
      merchant: m.merchant,
      total_count: m.total,
      ignored_count: m.ignored,
      share: Math.round((m.ignored / m.total) * 1000) / 1000,
    }))
    .sort(
      (a, b) =>
        b.ignored_count - a.ignored_count || b.share - a.share || a.merchant.localeCompare(b.merchant),
    );
}
