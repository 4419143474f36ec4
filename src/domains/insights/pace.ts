/**
 * The insights context's `pace` (the reference's PaceBlock): budget-pace math precomputed for the
 * model, so it never annualizes a lumpy (once-a-year) category by itself. Pure: the month's and
 * the year's spending come in by category (decimal amounts), the targets from the budget status.
 * Null when the year has no targets at all.
 */
import { ON_TRACK_BAND, paceStatus } from "../budget/rules";

interface PaceTarget {
  category: string;
  category_type: string;
  /** Annual target. */
  target: number;
  monthly_amount: number;
}

interface PaceInput {
  month: string;
  spendingCeiling: number;
  targets: PaceTarget[];
  /** Spending by category, each month of the year from January through `month`, oldest first. */
  months: { by_category: Record<string, { amount: number }> }[];
  /** The day reached in `month` when it is the current month (null for a finished month). */
  today: { day: number; daysInMonth: number } | null;
}

/** Within ±10% of what was expected counts as on track (as the budget status says). */
const BAND = ON_TRACK_BAND;
const r2 = (n: number) => Math.round(n * 100) / 100;
const r1 = (n: number) => Math.round(n * 10) / 10;

/** Sums by lower-cased category over months. */
function totals(months: PaceInput["months"]): Map<string, number> {
  const out = new Map<string, number>();
  for (const m of months)
    for (const [k, v] of Object.entries(m.by_category))
      out.set(k.toLowerCase(), (out.get(k.toLowerCase()) ?? 0) + v.amount);
  return out;
}

export function paceBlock(input: PaceInput) {
  if (input.spendingCeiling <= 0 && input.targets.length === 0) return null;
  const monthIndex = Number(input.month.slice(5, 7)) - 1;
  const dayPart = input.today ? input.today.day / input.today.daysInMonth : 1;
  const fraction = (monthIndex + dayPart) / 12;
  const ytd = totals(input.months);
  const month = totals(input.months.slice(-1));
  const budgeted = new Set(input.targets.map((t) => t.category.toLowerCase()));

  const categories = input.targets.map((t) => {
    const key = t.category.toLowerCase();
    const ytdActual = r2(ytd.get(key) ?? 0);
    const base = {
      category: t.category,
      category_type: t.category_type,
      annual_target: r2(t.target),
      monthly_target: r2(t.monthly_amount),
      month_actual: r2(month.get(key) ?? 0),
      ytd_actual: ytdActual,
      expected_to_date: null as number | null,
      variance_amount: null as number | null,
      variance_pct: null as number | null,
      pct_of_annual: null as number | null,
      remaining_expected: null as number | null,
    };
    if (t.category_type === "lumpy") {
      // Once a year: measured against the whole annual amount, never prorated.
      return {
        ...base,
        pct_of_annual: t.target > 0 ? r1((ytdActual / t.target) * 100) : null,
        remaining_expected: r2(Math.max(0, t.target - ytdActual)),
        assessment:
          ytdActual > t.target * (1 + BAND) ? "over" : ytdActual === 0 ? "not_yet_due" : "within_annual",
      };
    }
    const expected = r2(t.target * fraction);
    return {
      ...base,
      expected_to_date: expected,
      variance_amount: r2(ytdActual - expected),
      variance_pct: expected > 0 ? r1(((ytdActual - expected) / expected) * 100) : null,
      assessment: paceStatus(ytdActual, expected),
    };
  });

  const ytdSpent = r2([...ytd.values()].reduce((s, v) => s + v, 0));
  const prorated = r2(input.spendingCeiling * fraction);
  const lumpy = categories.filter((c) => c.category_type === "lumpy");
  const lumpyYtd = lumpy.reduce((s, c) => s + c.ytd_actual, 0);
  const lumpyYear = lumpy.reduce((s, c) => s + Math.max(c.ytd_actual, c.annual_target), 0);
  const naive = fraction > 0 ? ytdSpent / fraction : 0;
  const adjusted = fraction > 0 ? (ytdSpent - lumpyYtd) / fraction + lumpyYear : lumpyYear;
  const monthTotal = [...month.values()].reduce((s, v) => s + v, 0);

  return {
    months_elapsed: monthIndex + 1,
    ceiling: {
      annual: r2(input.spendingCeiling),
      ytd_spent: ytdSpent,
      prorated_to_date: prorated,
      variance_amount: r2(ytdSpent - prorated),
      variance_pct: prorated > 0 ? r1(((ytdSpent - prorated) / prorated) * 100) : 0,
      projected_naive: r2(naive),
      projected_adjusted: r2(adjusted),
      method_note:
        "projected_naive annualizes year-to-date spending; projected_adjusted annualizes everything " +
        "but lumpy (once-a-year) categories, which count at their annual target or their actual, " +
        "whichever is larger.",
    },
    categories,
    unbudgeted: [...ytd.entries()]
      .filter(([k, v]) => !budgeted.has(k) && v > 0)
      .sort((a, b) => b[1] - a[1])
      .map(([category, v]) => ({ category, ytd_actual: r2(v), month_actual: r2(month.get(category) ?? 0) })),
    month_progress: input.today
      ? {
          days_elapsed: input.today.day,
          days_in_month: input.today.daysInMonth,
          projected_month_end: r2((monthTotal / Math.max(1, input.today.day)) * input.today.daysInMonth),
        }
      : null,
  };
}
