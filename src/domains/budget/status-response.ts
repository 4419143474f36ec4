/**
 * The budget status leaves the journal here: status-rules assembles it in integer cents, this
 * turns every amount into the API's decimal number (ratios, counts and words pass through).
 */
import { fromCents, fromCentsOrNull } from "../../lib/money";
import type { BudgetStatusResponse, CategoryPaceDetail, GroupPace } from "./status-schemas";

type Overall = BudgetStatusResponse["overall"];
type Unbudgeted = BudgetStatusResponse["unbudgeted"][number];

const many = (xs: readonly number[]) => xs.map(fromCents);

const detailOut = (c: CategoryPaceDetail): CategoryPaceDetail => ({
  ...c,
  target: fromCents(c.target),
  monthly_amount: fromCents(c.monthly_amount),
  current_month_spent: fromCents(c.current_month_spent),
  current_month_expected: fromCents(c.current_month_expected),
  ytd_spent: fromCents(c.ytd_spent),
  ytd_expected: fromCents(c.ytd_expected),
  variance: fromCents(c.variance),
  monthly_spent: many(c.monthly_spent),
  prior_year_total: fromCentsOrNull(c.prior_year_total),
  forecast_month_total: fromCentsOrNull(c.forecast_month_total),
  forecast_lower: fromCentsOrNull(c.forecast_lower),
  forecast_upper: fromCentsOrNull(c.forecast_upper),
});

const groupOut = (g: GroupPace): GroupPace => ({
  ...g,
  budgeted_total: fromCents(g.budgeted_total),
  ytd_spent: fromCents(g.ytd_spent),
  expected_pace: fromCents(g.expected_pace),
  variance: fromCents(g.variance),
  categories: g.categories.map(detailOut),
  monthly_totals: many(g.monthly_totals),
  prior_year_total: fromCentsOrNull(g.prior_year_total),
});

const overallOut = (o: Overall): Overall => ({
  ...o,
  spending_ceiling: fromCents(o.spending_ceiling),
  ytd_spent: fromCents(o.ytd_spent),
  expected_pace: fromCents(o.expected_pace),
  variance: fromCents(o.variance),
  projected_month_total: fromCentsOrNull(o.projected_month_total),
});

const unbudgetedOut = (u: Unbudgeted): Unbudgeted => ({
  ...u,
  ytd_spent: fromCents(u.ytd_spent),
  monthly_avg_historical: fromCents(u.monthly_avg_historical),
  current_month_spent: fromCents(u.current_month_spent),
});

/** The whole status, cents → decimal. */
export const statusOut = (s: BudgetStatusResponse): BudgetStatusResponse => ({
  ...s,
  overall: overallOut(s.overall),
  groups: s.groups.map(groupOut),
  unbudgeted: s.unbudgeted.map(unbudgetedOut),
  monthly_totals: many(s.monthly_totals),
  prior_year_total: fromCentsOrNull(s.prior_year_total),
});
