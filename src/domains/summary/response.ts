/**
 * The summary leaves the journal here: rules.ts assembles it in integer cents, these turn every
 * amount into the API's decimal number (ratios, counts and words pass through).
 */
import { fromCents, fromCentsOrNull } from "../../lib/money";
import type { CategoryAnomaly, CategoryDelta, MonthPaceInfo, MonthSummary } from "./schemas";

const amounts = <T extends { amount: number }>(rec: Record<string, T>): Record<string, T> =>
  Object.fromEntries(Object.entries(rec).map(([k, v]) => [k, { ...v, amount: fromCents(v.amount) }]));

export const monthOut = (m: MonthSummary): MonthSummary => ({
  ...m,
  total_spending: fromCents(m.total_spending),
  deposit_total: fromCents(m.deposit_total),
  by_category: amounts(m.by_category),
  by_company: amounts(m.by_company),
  deposits_by_company: amounts(m.deposits_by_company),
  top_categories: m.top_categories.map((t) => ({ ...t, amount: fromCents(t.amount) })),
});

export const deltaOut = (d: CategoryDelta): CategoryDelta => ({
  ...d,
  current: fromCents(d.current),
  previous: fromCents(d.previous),
  delta_amount: fromCents(d.delta_amount),
});

export const anomalyOut = (a: CategoryAnomaly): CategoryAnomaly => ({
  ...a,
  current: fromCents(a.current),
  baseline: fromCents(a.baseline),
  annotated_amount: fromCents(a.annotated_amount),
});

export const paceOut = (p: MonthPaceInfo): MonthPaceInfo => ({
  ...p,
  month_to_date: fromCents(p.month_to_date),
  previous_to_date: fromCents(p.previous_to_date),
  typical_to_date: fromCentsOrNull(p.typical_to_date),
  projected_month_total: fromCentsOrNull(p.projected_month_total),
  projected_lower: fromCentsOrNull(p.projected_lower),
  projected_upper: fromCentsOrNull(p.projected_upper),
});

/** A trend month: its total and categories, cents → decimal. */
export const trendMonthOut = <
  T extends { total_spending: number; by_category: Record<string, { amount: number }> },
>(
  m: T,
): T => ({ ...m, total_spending: fromCents(m.total_spending), by_category: amounts(m.by_category) });
