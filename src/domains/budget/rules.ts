/**
 * Pure budget rules (no I/O): stored documents, the config response, category-type inference
 * and the pace status. Money is integer cents here; the config response converts to decimal.
 *
 * - `target` is always the annual amount; `input_mode` only records how the user entered it.
 *   `monthly_amount` = target / 12 rounded to the cent.
 * - A stored targets document marked `"money": "cents"` holds cents (migration 0007 converted the
 *   stored ones); an unmarked one (an R2 backup or a ledger image written in decimal) is decimal
 *   and is converted on read.
 * - Category keys are the category's identity (`categoryKey`: trimmed, whitespace collapsed,
 *   case-folded), on write and on read (a document written by hand, the demo or an older version
 *   keyed `Groceries` reads as `groceries`); two keys equal after that are a validation error, and
 *   so is a category listed in two groups.
 * - Pace: on_track while spent is within ±10% of expected; below is under, above is over. With
 *   nothing expected, any spending is over.
 */
import { categoryKey } from "../../categorize/normalize";
import type { ValidationIssue } from "../../lib/errors";
import { type Cents, fromCents, roundCents, toCents, ZERO_CENTS, sumCents, subCents } from "../../lib/money";
import {
  type BudgetCategoryConfig,
  type BudgetConfigResponse,
  type BudgetConfigUpdateRequest,
  type BudgetGroupConfig,
  CATEGORY_TYPES,
  type CategoryType,
} from "./schemas";

/** One category's target, money in cents. */
export interface CategoryTarget {
  target: Cents;
  input_mode: BudgetCategoryConfig["input_mode"];
  monthly_amount: Cents;
  category_type: CategoryType;
}
/** The stored targets document (also the in-memory form): money in cents, so marked. */
export interface TargetsDoc {
  money: "cents";
  spending_ceiling: Cents;
  categories: Record<string, CategoryTarget>;
}
export interface GroupsDoc {
  groups: BudgetGroupConfig[];
}

export const EMPTY_TARGETS: TargetsDoc = { money: "cents", spending_ceiling: ZERO_CENTS, categories: {} };
export const EMPTY_GROUPS: GroupsDoc = { groups: [] };

/** A target's key is the category's identity (one function for every table: categorize/normalize). */
export { categoryKey };

/** Problems zod cannot see: keys equal up to case, duplicate group names, a category in two groups. */
export function configIssues(
  input: Pick<BudgetConfigUpdateRequest, "categories" | "groups">,
): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  const seen = new Set<string>();
  for (const name of Object.keys(input.categories ?? {})) {
    const k = categoryKey(name);
    if (seen.has(k))
      issues.push(issue(["body", "categories", name], `duplicates another category (case-insensitive)`));
    seen.add(k);
  }
  return [...issues, ...groupIssues(input.groups)];
}

export function groupIssues(groups: BudgetGroupConfig[]): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  const names = new Set<string>();
  const member = new Map<string, string>();
  groups.forEach((g, i) => {
    const n = g.name.trim().toLowerCase();
    if (names.has(n)) issues.push(issue(["body", "groups", i, "name"], "duplicates another group name"));
    names.add(n);
    for (const c of new Set(g.categories.map(categoryKey))) {
      const other = member.get(c);
      if (other !== undefined)
        issues.push(issue(["body", "groups", i, "categories"], `${c} is already in group ${other}`));
      member.set(c, g.name.trim());
    }
  });
  return issues;
}

const issue = (loc: (string | number)[], msg: string): ValidationIssue => ({ loc, msg, type: "value_error" });

const monthlyOf = (target: Cents): Cents => roundCents(target / 12);

/** The stored targets document of an update (decimal API input; keys lowercased and sorted). */
export function targetsDoc(
  input: Pick<BudgetConfigUpdateRequest, "spending_ceiling" | "categories">,
): TargetsDoc {
  const categories: Record<string, CategoryTarget> = {};
  for (const name of Object.keys(input.categories).sort((a, b) =>
    categoryKey(a).localeCompare(categoryKey(b)),
  )) {
    const c = input.categories[name]!;
    const target = toCents(c.target);
    categories[categoryKey(name)] = {
      target,
      input_mode: c.input_mode,
      monthly_amount: monthlyOf(target),
      category_type: c.category_type,
    };
  }
  return { money: "cents", spending_ceiling: toCents(input.spending_ceiling), categories };
}

export function groupsDoc(groups: BudgetGroupConfig[]): GroupsDoc {
  return {
    groups: groups.map((g) => ({
      name: g.name.trim(),
      categories: [...new Set(g.categories.map(categoryKey))],
    })),
  };
}

/**
 * A stored targets document, tolerant of missing fields (defaults fill them). Marked
 * `"money": "cents"`: amounts are cents; unmarked (a decimal-era backup or ledger image): decimal.
 */
export function parseTargets(value: unknown): TargetsDoc {
  const v = (value ?? {}) as { money?: unknown; spending_ceiling?: unknown; categories?: unknown };
  const inCents = v.money === "cents";
  const money = (x: unknown): Cents => {
    const n = Number(x ?? 0);
    if (!Number.isFinite(n)) return ZERO_CENTS;
    return inCents ? roundCents(n) : toCents(n);
  };
  const categories: Record<string, CategoryTarget> = {};
  const stored = v.categories && typeof v.categories === "object" ? v.categories : {};
  for (const [k, raw] of Object.entries(stored as Record<string, Partial<BudgetCategoryConfig> | null>)) {
    const c = raw ?? {};
    const target = money(c.target);
    categories[categoryKey(k)] = {
      target,
      input_mode: c.input_mode === "monthly" ? "monthly" : "yearly",
      monthly_amount: typeof c.monthly_amount === "number" ? money(c.monthly_amount) : monthlyOf(target),
      category_type:
        c.category_type && CATEGORY_TYPES.includes(c.category_type) ? c.category_type : "variable",
    };
  }
  return { money: "cents", spending_ceiling: money(v.spending_ceiling), categories };
}

/** A category target as the API shows it (decimal). */
const categoryOut = (c: CategoryTarget): BudgetCategoryConfig => ({
  ...c,
  target: fromCents(c.target),
  monthly_amount: fromCents(c.monthly_amount),
});

/** The targets as the API (and the ledger images) show them: decimal, unmarked. */
export function targetsOut(t: TargetsDoc): {
  spending_ceiling: number;
  categories: Record<string, BudgetCategoryConfig>;
} {
  return {
    spending_ceiling: fromCents(t.spending_ceiling),
    categories: Object.fromEntries(Object.entries(t.categories).map(([k, c]) => [k, categoryOut(c)])),
  };
}

export function parseGroups(value: unknown): GroupsDoc {
  const groups = (value as Partial<GroupsDoc> | null)?.groups;
  if (!Array.isArray(groups)) return { groups: [] };
  return {
    groups: groups
      .filter((g) => g && typeof g.name === "string" && Array.isArray(g.categories))
      .map((g) => ({
        name: g.name,
        categories: [...new Set(g.categories.map((c) => categoryKey(String(c))))],
      })),
  };
}

export function configResponse(
  year: number,
  targets: TargetsDoc,
  groups: GroupsDoc,
  versions: { targets: number; groups: number },
): BudgetConfigResponse {
  const allocated = sumCents(Object.values(targets.categories).map((c) => c.target));
  return {
    year,
    ...targetsOut(targets),
    groups: groups.groups,
    targets_version: versions.targets,
    groups_version: versions.groups,
    allocated_total: fromCents(allocated),
    unallocated: fromCents(subCents(targets.spending_ceiling, allocated)),
  };
}

/**
 * Category type from monthly totals (one number per analyzed month, zeros included):
 * - no spending at all → variable (nothing to go on);
 * - fixed: spend in at least 80% of the months and the active months' coefficient of variation
 *   (population std / mean) at most 0.15;
 * - lumpy: spend in fewer than half of the months, or the CV over all months above 1.0;
 * - otherwise variable.
 */
export function inferCategoryType(monthly: readonly number[]): CategoryType {
  const active = monthly.filter((v) => v > 0);
  if (monthly.length === 0 || active.length === 0) return "variable";
  const share = active.length / monthly.length;
  if (share >= 0.8 && cv(active) <= 0.15) return "fixed";
  if (share < 0.5 || cv(monthly) > 1) return "lumpy";
  return "variable";
}

/** Coefficient of variation (population standard deviation / mean); 0 for a zero mean. */
export function cv(values: readonly number[]): number {
  const mean = values.reduce((s, v) => s + v, 0) / values.length;
  if (mean === 0) return 0;
  const variance = values.reduce((s, v) => s + (v - mean) ** 2, 0) / values.length;
  return Math.sqrt(variance) / mean;
}

export type Pace = "under" | "on_track" | "over";
export const ON_TRACK_BAND = 0.1;

/** Scale-free (a ratio), so cents or decimal alike; with nothing expected, any spending is over. */
export function paceStatus(spent: number, expected: number): Pace {
  if (expected <= 0) return spent > 0 ? "over" : "on_track";
  const r = spent / expected;
  if (r > 1 + ON_TRACK_BAND) return "over";
  if (r < 1 - ON_TRACK_BAND) return "under";
  return "on_track";
}

export const pacePercent = (spent: number, expected: number) =>
  expected > 0 ? Math.round((spent / expected) * 1000) / 10 : 0;

/** Elapsed share of `year` on the local date `today` (YYYY-MM-DD), counting today as elapsed. */
export function elapsedYearFraction(year: number, today: string): number {
  const [y, m, d] = today.split("-").map(Number) as [number, number, number];
  if (year < y) return 1;
  if (year > y) return 0;
  const dayOfYear = (Date.UTC(y, m - 1, d) - Date.UTC(y, 0, 1)) / 86_400_000 + 1;
  const days = (Date.UTC(y + 1, 0, 1) - Date.UTC(y, 0, 1)) / 86_400_000;
  return dayOfYear / days;
}

const money = (x: Cents) =>
  `$${fromCents(x).toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

/** The overall status in words (amounts in cents). */
export function headline(year: number, ceiling: Cents, spent: Cents, expected: Cents, status: Pace): string {
  if (ceiling <= 0) return `No spending ceiling set for ${year}; ${money(spent)} spent so far`;
  const label = status === "over" ? "Over pace" : status === "under" ? "Under pace" : "On track";
  return `${label}: ${money(spent)} spent vs ${money(expected)} expected of a ${money(ceiling)} ceiling`;
}
