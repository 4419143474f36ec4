/**
 * Pure summary rules: month assembly, deltas, anomalies, the pace projection. No I/O.
 * Every amount is integer cents (the shapes are the response's; response.ts converts them to
 * decimal at the boundary). Derived amounts (means, projections) are rounded to the cent.
 */
import { type Cents, percentile, plainCents, round2, roundCents, asCents } from "../../lib/money";
import type { CategoryAnomaly, CategoryDelta, MonthPaceInfo, MonthSummary } from "./schemas";

/** One aggregate row (amount in cents). */
export interface GroupRow {
  key: string;
  label?: string;
  category?: string;
  amount: Cents;
  n: number;
}

export function monthSummary(
  month: string,
  byCat: GroupRow[],
  byCompany: GroupRow[],
  deposits: GroupRow[],
): MonthSummary {
  const sum = (rows: GroupRow[]) => rows.reduce((s, r) => s + r.amount, 0);
  const count = (rows: GroupRow[]) => rows.reduce((s, r) => s + r.n, 0);
  const sorted = [...byCat].sort((a, b) => b.amount - a.amount || a.key.localeCompare(b.key));
  return {
    year_month: month,
    total_spending: sum(byCat),
    spending_count: count(byCat),
    deposit_total: sum(deposits),
    deposit_count: count(deposits),
    by_category: Object.fromEntries(sorted.map((r) => [r.key, { amount: r.amount, count: r.n }])),
    by_company: Object.fromEntries(
      [...byCompany]
        .sort((a, b) => b.amount - a.amount)
        .map((r) => [
          r.label ?? r.key,
          { amount: r.amount, count: r.n, category: r.category ?? "miscellaneous" },
        ]),
    ),
    deposits_by_company: Object.fromEntries(
      [...deposits]
        .sort((a, b) => b.amount - a.amount)
        .map((r) => [r.label ?? r.key, { amount: r.amount, count: r.n }]),
    ),
    top_categories: sorted.slice(0, 5).map((r) => ({ name: r.key, amount: r.amount, count: r.n })),
  };
}

/** A change as a percent of its base (a ratio: round2 applies); null without a base. */
export const pct = (delta: number, base: number): number | null =>
  base > 0 ? round2((delta / base) * 100) : null;

export function categoryDeltas(cur: MonthSummary, prev: MonthSummary): CategoryDelta[] {
  const names = new Set([...Object.keys(cur.by_category), ...Object.keys(prev.by_category)]);
  return [...names]
    .map((category) => {
      const current = cur.by_category[category]?.amount ?? 0;
      const previous = prev.by_category[category]?.amount ?? 0;
      const delta = current - previous;
      return { category, current, previous, delta_amount: delta, delta_pct: pct(delta, previous) };
    })
    .sort(
      (a, b) => Math.abs(b.delta_amount) - Math.abs(a.delta_amount) || a.category.localeCompare(b.category),
    );
}

/** Below this excess over the baseline (25.00) a change is noise, whatever the ratio. */
const ANOMALY_MIN_EXCESS = asCents(2500);
/** Spending at least this (100.00) in a category with no history is high. */
const ANOMALY_NEW_HIGH = asCents(10_000);

/**
 * A category is anomalous when this month exceeds its prior-6-month average by at least
 * ANOMALY_MIN_EXCESS and by a ratio of 1.5 (low), 2 (medium) or 3 (high); spending in a category
 * with no history is medium, or high from 100. Commented transactions of the month explain part of
 * the excess (`annotated_amount`). The baseline averages only prior months that have any
 * spending at all, so a journal started three months ago is not compared with empty months.
 * No history at all → no anomalies.
 */
export function anomalies(
  current: Record<string, Cents>,
  priorMonths: Record<string, Cents>[],
  commented: Record<string, Cents>,
): CategoryAnomaly[] {
  const history = priorMonths.filter((m) => Object.keys(m).length > 0);
  if (history.length === 0) return [];
  const out: CategoryAnomaly[] = [];
  for (const [category, amount] of Object.entries(current)) {
    const baseline = roundCents(history.reduce((s, m) => s + (m[category] ?? 0), 0) / history.length);
    const excess = amount - baseline;
    if (excess < ANOMALY_MIN_EXCESS) continue;
    const ratio = baseline > 0 ? amount / baseline : Number.POSITIVE_INFINITY;
    let severity: CategoryAnomaly["severity"] | null = null;
    if (baseline === 0) severity = amount >= ANOMALY_NEW_HIGH ? "high" : "medium";
    else if (ratio >= 3) severity = "high";
    else if (ratio >= 2) severity = "medium";
    else if (ratio >= 1.5) severity = "low";
    if (!severity) continue;
    const reason =
      baseline === 0
        ? `${dollars(amount)} with no spending in the prior ${history.length} months`
        : `${dollars(amount)} vs a typical ${dollars(baseline)} (${ratio.toFixed(1)}× the ${history.length}-month average)`;
    out.push({
      category,
      current: amount,
      baseline,
      severity,
      reason,
      annotated_amount: Math.min(excess, commented[category] ?? 0),
    });
  }
  const rank = { high: 0, medium: 1, low: 2 };
  return out.sort(
    (a, b) => rank[a.severity] - rank[b.severity] || b.current - b.baseline - (a.current - a.baseline),
  );
}

const dollars = (c: Cents) => `$${plainCents(c)}`;

interface PriorMonth {
  toDate: Cents;
  total: Cents;
}

/** Days 1-3 are too early for a curve: the typical month stands in (`historical`). */
const EARLY_DAYS = 3;

/**
 * The current month's projection. `forecast`: each prior month's share spent by this day turns the
 * month-to-date into a month total; median with P25/P75. `historical`: early in the month, the
 * average prior total. `limited`: under 2 usable prior months, a straight line from the daily rate.
 */
export function pace(
  day: number,
  dim: number,
  mtd: Cents,
  previousToDate: Cents,
  prior: PriorMonth[],
): MonthPaceInfo {
  const active = prior.filter((m) => m.total > 0);
  const typical = active.length ? roundCents(active.reduce((s, m) => s + m.toDate, 0) / active.length) : null;
  const base = {
    day_of_month: day,
    days_in_month: dim,
    month_to_date: mtd,
    previous_to_date: previousToDate,
    typical_to_date: typical,
    breakdown: null,
  };
  const r = (x: number | null) => (x === null ? null : roundCents(x));
  if (day <= EARLY_DAYS && active.length >= 1) {
    const totals = active.map((m) => m.total);
    const mean = totals.reduce((s, x) => s + x, 0) / totals.length;
    return {
      ...base,
      projected_month_total: r(Math.max(mean, mtd)),
      projected_lower: r(percentile(totals, 25)),
      projected_upper: r(percentile(totals, 75)),
      forecast_quality: "historical",
    };
  }
  const projections = active.filter((m) => m.toDate > 0).map((m) => mtd / (m.toDate / m.total));
  if (projections.length >= 2) {
    return {
      ...base,
      projected_month_total: r(Math.max(mtd, percentile(projections, 50)!)),
      projected_lower: r(Math.max(mtd, percentile(projections, 25)!)),
      projected_upper: r(Math.max(mtd, percentile(projections, 75)!)),
      forecast_quality: "forecast",
    };
  }
  return {
    ...base,
    projected_month_total: r((mtd / day) * dim),
    projected_lower: null,
    projected_upper: null,
    forecast_quality: "limited",
  };
}
