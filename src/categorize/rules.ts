/**
 * Override resolver tiers 0-2 (pure). Tier 0: case-insensitive equality with an override key.
 * Tier 1: both sides normalized. Tier 2: as tier 1 after merchant-alias substitution (skipped
 * when there are no aliases). Ambiguity: keys that collapse to one tier-1/tier-2 key but name
 * different categories drop out of that tier.
 */
import type { merchantAliases, overrides } from "../db/schema";
import { normalizeMerchant } from "./normalize";

export type OverrideRow = Pick<typeof overrides.$inferSelect, "company" | "category">;
export type AliasRow = Pick<typeof merchantAliases.$inferSelect, "raw_name" | "canonical">;

export interface ResolverHit {
  category: string;
  source: "override" | "override_normalized" | "override_alias" | "override_fuzzy";
  matched_rule: string;
  confidence: number;
  tier: 0 | 1 | 2 | 3;
}

interface Entry {
  key: string;
  category: string;
}

export interface ResolverIndex {
  exact: Map<string, Entry>;
  normalized: Map<string, Entry>;
  alias: Map<string, Entry> | null;
  aliasOf: Map<string, string>;
  overrides: OverrideRow[];
  /**
   * Tier-1 and tier-2 keys dropped as ambiguous (naming two categories). The fuzzy tier never
   * picks an override of such a group either: the ambiguity rule hands the merchant to the model.
   */
  ambiguous?: { normalized: Set<string>; alias: Set<string> };
}

/** Groups entries by derived key; a group naming two categories is dropped (and its key noted). */
function unambiguous(
  rows: OverrideRow[],
  keyOf: (s: string) => string,
  dropped: Set<string> = new Set(),
): Map<string, Entry> {
  const groups = new Map<string, Entry[]>();
  for (const r of rows) {
    const k = keyOf(r.company);
    if (!k) continue;
    const list = groups.get(k) ?? [];
    list.push({ key: r.company, category: r.category });
    groups.set(k, list);
  }
  const out = new Map<string, Entry>();
  for (const [k, list] of groups) {
    const cats = new Set(list.map((e) => e.category.toLowerCase()));
    if (cats.size === 1 && list[0]) out.set(k, list[0]);
    else dropped.add(k);
  }
  return out;
}

export function aliasKeyFn(aliasOf: Map<string, string>): (s: string) => string {
  return (s) => {
    const n = normalizeMerchant(s);
    return aliasOf.get(n) ?? n;
  };
}

export function buildIndex(overrides: OverrideRow[], aliases: AliasRow[]): ResolverIndex {
  const exact = new Map<string, Entry>();
  for (const r of overrides)
    exact.set(r.company.trim().toLowerCase(), { key: r.company, category: r.category });
  const aliasOf = new Map<string, string>();
  for (const a of aliases) {
    const from = normalizeMerchant(a.raw_name);
    const to = normalizeMerchant(a.canonical);
    if (from && to) aliasOf.set(from, to);
  }
  const ambiguous = { normalized: new Set<string>(), alias: new Set<string>() };
  return {
    exact,
    normalized: unambiguous(overrides, normalizeMerchant, ambiguous.normalized),
    alias: aliasOf.size > 0 ? unambiguous(overrides, aliasKeyFn(aliasOf), ambiguous.alias) : null,
    aliasOf,
    overrides,
    ambiguous,
  };
}

/** Whether an override key belongs to a group the ambiguity rule dropped (SPEC: resolver rule 2). */
export function inAmbiguousGroup(index: ResolverIndex, company: string): boolean {
  if (!index.ambiguous) return false;
  const n = normalizeMerchant(company);
  if (n && index.ambiguous.normalized.has(n)) return true;
  return index.alias !== null && index.ambiguous.alias.has(aliasKeyFn(index.aliasOf)(company));
}

/** Tiers 0-2, first hit wins; null falls through to fuzzy / the model. */
export function resolveDeterministic(index: ResolverIndex, company: string | null): ResolverHit | null {
  const name = company?.trim();
  if (!name) return null;
  const exact = index.exact.get(name.toLowerCase());
  if (exact) return hit(exact, "override", 0);
  const norm = normalizeMerchant(name);
  const normalized = norm ? index.normalized.get(norm) : undefined;
  if (normalized) return hit(normalized, "override_normalized", 1);
  if (index.alias) {
    const viaAlias = index.alias.get(aliasKeyFn(index.aliasOf)(name));
    if (viaAlias) return hit(viaAlias, "override_alias", 2);
  }
  return null;
}

function hit(e: Entry, source: ResolverHit["source"], tier: 0 | 1 | 2): ResolverHit {
  return { category: e.category, source, matched_rule: e.key, confidence: 1, tier };
}

/** Cosine similarity of two equal-length vectors (0 when either is zero or lengths differ). */
export function cosine(a: number[], b: number[]): number {
  if (a.length !== b.length || a.length === 0) return 0;
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    const x = a[i] ?? 0;
    const y = b[i] ?? 0;
    dot += x * y;
    na += x * x;
    nb += y * y;
  }
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}
