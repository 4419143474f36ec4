/**
 * Pure current-month forecast of one category (no I/O). Branches, first match wins:
 * 1. lumpy categories are not forecast (every field null);
 * 2. committed: at least 3 history months and the expected recurring charges (same company and
 *    amount in >= 3 prior months) make up >= 70% of the trailing mean. Projection = spent + the
 *    recurring charges not seen yet this month + the everyday remainder (trailing mean minus the
 *    recurring sum, scaled to the days left). Bounds null;
 * 3. limited: fewer than 2 history months. Linear extrapolation spent x days / day. Bounds null;
 * 4. historical: early in the month (day <= 7) or fewer than 2 transactions so far. Projection =
 *    max(spent, trailing mean); bounds = max(spent, P25 / P75 of the prior month totals);
 * 5. forecast: from the prior months' within-month curves: what each prior month still spent after
 *    today's day number is added to spent; P50 is the projection, P25 and P75 the bounds.
 * History months are the prior months (trailing 6) that hold any spending at all, so a category's
 * quiet month counts as a zero. Money is integer cents in and out (projections rounded to the cent).
 */
import { type Cents, percentile, roundCents } from "../../lib/money";
import type { CategoryType } from "./schemas";

type ForecastQuality = "forecast" | "historical" | "limited" | "committed";

const COMMITTED_SHARE = 0.7;
export const RECURRING_MIN_MONTHS = 3;
const EARLY_DAY = 7;
const FEW_TRANSACTIONS = 2;

export interface HistoryMonth {
  /** The category's total that month. */
  total: Cents;
  /** The category's spend through today's day number that month. */
  toDate: Cents;
}

export interface ForecastInput {
  type: CategoryType;
  day: number;
  daysInMonth: number;
  spent: Cents;
  count: number;
  history: HistoryMonth[];
  /** Expected recurring charges of the category and whether each has arrived this month. */
  recurring: { amount: Cents; arrived: boolean }[];
  monthlyBudget: Cents;
}

export interface Forecast {
  forecast_month_total: Cents | null;
  forecast_lower: Cents | null;
  forecast_upper: Cents | null;
  forecast_pct: number | null;
  forecast_quality: ForecastQuality | null;
}

export const NO_FORECAST: Forecast = {
  forecast_month_total: null,
  forecast_lower: null,
  forecast_upper: null,
  forecast_pct: null,
  forecast_quality: null,
};

export function forecastCategory(f: ForecastInput): Forecast {
  if (f.type === "lumpy") return NO_FORECAST;
  const totals = f.history.map((h) => h.total);
  const mean = totals.length ? totals.reduce((s, v) => s + v, 0) / totals.length : 0;
  const recurringSum = f.recurring.reduce((s, r) => s + r.amount, 0);
  const daysLeft = Math.max(0, f.daysInMonth - f.day);

  if (totals.length >= RECURRING_MIN_MONTHS && mean > 0 && recurringSum >= COMMITTED_SHARE * mean) {
    const pending = f.recurring.filter((r) => !r.arrived).reduce((s, r) => s + r.amount, 0);
    const everyday = Math.max(0, mean - recurringSum) * (daysLeft / f.daysInMonth);
    return result(f, "committed", f.spent + pending + everyday, null, null);
  }
  if (totals.length < 2) {
    return result(f, "limited", f.day > 0 ? (f.spent * f.daysInMonth) / f.day : f.spent, null, null);
  }
  if (f.day <= EARLY_DAY || f.count < FEW_TRANSACTIONS) {
    const at = (p: number) => Math.max(f.spent, percentile(totals, p) ?? 0);
    return result(f, "historical", Math.max(f.spent, mean), at(25), at(75));
  }
  const remaining = f.history.map((h) => Math.max(0, h.total - h.toDate));
  const at = (p: number) => f.spent + (percentile(remaining, p) ?? 0);
  return result(f, "forecast", at(50), at(25), at(75));
}

function result(
  f: ForecastInput,
  quality: ForecastQuality,
  total: number,
  lower: number | null,
  upper: number | null,
): Forecast {
  const t = roundCents(total);
  return {
    forecast_month_total: t,
    forecast_lower: lower === null ? null : roundCents(lower),
    forecast_upper: upper === null ? null : roundCents(upper),
    forecast_pct: f.monthlyBudget > 0 ? Math.round((t / f.monthlyBudget) * 1000) / 10 : null,
    forecast_quality: quality,
  };
}
