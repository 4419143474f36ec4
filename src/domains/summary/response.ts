/**
 * The summary leaves the journal here: rules.ts assembles it in integer cents, these turn every
 * amount into the API's decimal number (ratios, counts and words pass through).
 */
import { fromCentsField, fromCentsFieldOrNull } from "../../lib/money";
import type { CategoryAnomaly, CategoryDelta, MonthPaceInfo, MonthSummary } from "./schemas";

const amounts = <T extends { amount: number }>(rec: Record<string, T>): Record<string, T> =>
  Object.fromEntries(Object.entries(rec).map(([k, v]) => [k, { ...v, amount: fromCentsField(v.amount) }]));

export const monthOut = (m: MonthSummary): MonthSummary => ({
  ...m,
  total_spending: fromCentsField(m.total_spending),
  deposit_total: fromCentsField(m.deposit_total),
  by_category: amounts(m.by_category),
  by_company: amounts(m.by_company),
  deposits_by_company: amounts(m.deposits_by_company),
  top_categories: m.top_categories.map((t) => ({ ...t, amount: fromCentsField(t.amount) })),
});

export const deltaOut = (d: CategoryDelta): CategoryDelta => ({
  ...d,
  current: fromCentsField(d.current),
  previous: fromCentsField(d.previous),
  delta_amount: fromCentsField(d.delta_amount),
});

export const anomalyOut = (a: CategoryAnomaly): CategoryAnomaly => ({
  ...a,
  current: fromCentsField(a.current),
  baseline: fromCentsField(a.baseline),
  annotated_amount: fromCentsField(a.annotated_amount),
});

export const paceOut = (p: MonthPaceInfo): MonthPaceInfo => ({
  ...p,
  month_to_date: fromCentsField(p.month_to_date),
  previous_to_date: fromCentsField(p.previous_to_date),
  typical_to_date: fromCentsFieldOrNull(p.typical_to_date),
  projected_month_total: fromCentsFieldOrNull(p.projected_month_total),
  projected_lower: fromCentsFieldOrNull(p.projected_lower),
  projected_upper: fromCentsFieldOrNull(p.projected_upper),
});

/** A trend month: its total and categories, cents → decimal. */
export const trendMonthOut = <
  T extends { total_spending: number; by_category: Record<string, { amount: number }> },
>(
  m: T,
): T => ({ ...m, total_spending: fromCentsField(m.total_spending), by_category: amounts(m.by_category) });
