/**
 * Pure assembly of the budget status (no I/O): per-category pace and forecast, groups, overall.
 * Pace compares year-to-date spend with target x elapsed fraction of the year; the current month
 * compares its spend with monthly_amount x elapsed fraction of the month.
 * Every amount here is integer cents (the shapes are the response's; status-response.ts converts
 * them to decimal at the boundary). Derived amounts are rounded to the cent.
 */
import { type Cents, roundCents, ZERO_CENTS, sumCents } from "../../lib/money";
import { type Forecast, forecastCategory, type HistoryMonth, NO_FORECAST } from "./forecast";
import { type CategoryTarget, headline, pacePercent, paceStatus } from "./rules";
import type { BudgetGroupConfig } from "./schemas";
import type { CategoryPaceDetail, GroupPace } from "./status-schemas";

const UNGROUPED = "Ungrouped";

export interface When {
  year: number;
  fraction: number;
  /** True when `year` is the current year: current-month figures and forecasts exist. */
  isCurrent: boolean;
  /** 0-based index of the current month in `year` (only meaningful when isCurrent). */
  monthIndex: number;
  /** Months of `year` counted year-to-date (12 for a past year, 0 for a future one). */
  monthsElapsed: number;
  day: number;
  daysInMonth: number;
}

export interface CategoryFacts {
  monthly: Cents[];
  counts: number[];
  prior: Cents | null;
  history: HistoryMonth[];
  recurring: { amount: Cents; arrived: boolean }[];
}

export const sum = (xs: readonly number[]) => xs.reduce((s, v) => s + v, 0);
export const ytdOf = (monthly: readonly Cents[], w: When): Cents =>
  sumCents(monthly.slice(0, w.monthsElapsed));

export function categoryPace(
  category: string,
  cfg: CategoryTarget,
  f: CategoryFacts,
  w: When,
): CategoryPaceDetail {
  const ytd = ytdOf(f.monthly, w);
  const expected = roundCents(cfg.target * w.fraction);
  const spent = w.isCurrent ? (f.monthly[w.monthIndex] ?? ZERO_CENTS) : ZERO_CENTS;
  const forecast: Forecast = w.isCurrent
    ? forecastCategory({
        type: cfg.category_type,
        day: w.day,
        daysInMonth: w.daysInMonth,
        spent,
        count: f.counts[w.monthIndex] ?? 0,
        history: f.history,
        recurring: f.recurring,
        monthlyBudget: cfg.monthly_amount,
      })
    : NO_FORECAST;
  return {
    category,
    target: cfg.target,
    input_mode: cfg.input_mode,
    monthly_amount: cfg.monthly_amount,
    category_type: cfg.category_type,
    current_month_spent: spent,
    current_month_expected: w.isCurrent ? roundCents((cfg.monthly_amount * w.day) / w.daysInMonth) : 0,
    ytd_spent: ytd,
    ytd_expected: expected,
    variance: ytd - expected,
    pace_percent: pacePercent(ytd, expected),
    status: paceStatus(ytd, expected),
    monthly_spent: f.monthly,
    prior_year_total: f.prior,
    ...forecast,
  };
}

function groupPace(name: string, cats: CategoryPaceDetail[], w: When, hasPrior: boolean): GroupPace {
  const budgeted = sum(cats.map((c) => c.target));
  const ytd = sum(cats.map((c) => c.ytd_spent));
  const expected = roundCents(budgeted * w.fraction);
  return {
    name,
    budgeted_total: budgeted,
    ytd_spent: ytd,
    expected_pace: expected,
    variance: ytd - expected,
    status: paceStatus(ytd, expected),
    categories: cats,
    monthly_totals: Array.from({ length: 12 }, (_, i) => sum(cats.map((c) => c.monthly_spent[i] ?? 0))),
    prior_year_total: hasPrior ? sum(cats.map((c) => c.prior_year_total ?? 0)) : null,
  };
}

/** Configured groups (their budgeted categories), then `Ungrouped` for budgeted categories in no group. */
export function arrangeGroups(
  groups: BudgetGroupConfig[],
  details: Map<string, CategoryPaceDetail>,
  w: When,
  hasPrior: boolean,
): GroupPace[] {
  const placed = new Set<string>();
  const out = groups.map((g) => {
    const cats = g.categories.flatMap((c) => {
      const d = details.get(c);
      if (!d || placed.has(c)) return [];
      placed.add(c);
      return [d];
    });
    return groupPace(g.name, cats, w, hasPrior);
  });
  const rest = [...details.keys()].filter((k) => !placed.has(k)).sort();
  if (rest.length)
    out.push(
      groupPace(
        UNGROUPED,
        rest.map((k) => details.get(k)!),
        w,
        hasPrior,
      ),
    );
  return out;
}

/** The ceiling's pace over all spending; the projection sums the budgeted non-lumpy forecasts. */
export function overallPace(ceiling: Cents, ytd: Cents, details: CategoryPaceDetail[], w: When) {
  const expected = roundCents(ceiling * w.fraction);
  // An unset ceiling (0) is not a zero budget: the overall status stays on_track.
  const status = ceiling > 0 ? paceStatus(ytd, expected) : "on_track";
  const forecast = details.filter(
    (d) => d.category_type !== "lumpy" && typeof d.forecast_month_total === "number",
  );
  const projected = forecast.length ? sum(forecast.map((d) => d.forecast_month_total ?? 0)) : null;
  const budget = sum(forecast.map((d) => d.monthly_amount));
  return {
    spending_ceiling: ceiling,
    ytd_spent: ytd,
    expected_pace: expected,
    variance: ytd - expected,
    status,
    headline: headline(w.year, ceiling, ytd, expected, status),
    projected_month_total: projected,
    projected_month_status: projected === null ? null : paceStatus(projected, budget),
  };
}
