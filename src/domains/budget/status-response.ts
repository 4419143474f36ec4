/**
 * The budget status leaves the journal here: status-rules assembles it in integer cents, this
 * turns every amount into the API's decimal number (ratios, counts and words pass through).
 */
import { fromCentsField, fromCentsFieldOrNull } from "../../lib/money";
import type { BudgetStatusResponse, CategoryPaceDetail, GroupPace } from "./status-schemas";

type Overall = BudgetStatusResponse["overall"];
type Unbudgeted = BudgetStatusResponse["unbudgeted"][number];

const many = (xs: readonly number[]) => xs.map(fromCentsField);

const detailOut = (c: CategoryPaceDetail): CategoryPaceDetail => ({
  ...c,
  target: fromCentsField(c.target),
  monthly_amount: fromCentsField(c.monthly_amount),
  current_month_spent: fromCentsField(c.current_month_spent),
  current_month_expected: fromCentsField(c.current_month_expected),
  ytd_spent: fromCentsField(c.ytd_spent),
  ytd_expected: fromCentsField(c.ytd_expected),
  variance: fromCentsField(c.variance),
  monthly_spent: many(c.monthly_spent),
  prior_year_total: fromCentsFieldOrNull(c.prior_year_total),
  forecast_month_total: fromCentsFieldOrNull(c.forecast_month_total),
  forecast_lower: fromCentsFieldOrNull(c.forecast_lower),
  forecast_upper: fromCentsFieldOrNull(c.forecast_upper),
});

const groupOut = (g: GroupPace): GroupPace => ({
  ...g,
  budgeted_total: fromCentsField(g.budgeted_total),
  ytd_spent: fromCentsField(g.ytd_spent),
  expected_pace: fromCentsField(g.expected_pace),
  variance: fromCentsField(g.variance),
  categories: g.categories.map(detailOut),
  monthly_totals: many(g.monthly_totals),
  prior_year_total: fromCentsFieldOrNull(g.prior_year_total),
});

const overallOut = (o: Overall): Overall => ({
  ...o,
  spending_ceiling: fromCentsField(o.spending_ceiling),
  ytd_spent: fromCentsField(o.ytd_spent),
  expected_pace: fromCentsField(o.expected_pace),
  variance: fromCentsField(o.variance),
  projected_month_total: fromCentsFieldOrNull(o.projected_month_total),
});

const unbudgetedOut = (u: Unbudgeted): Unbudgeted => ({
  ...u,
  ytd_spent: fromCentsField(u.ytd_spent),
  monthly_avg_historical: fromCentsField(u.monthly_avg_historical),
  current_month_spent: fromCentsField(u.current_month_spent),
});

/** The whole status, cents → decimal. */
export const statusOut = (s: BudgetStatusResponse): BudgetStatusResponse => ({
  ...s,
  overall: overallOut(s.overall),
  groups: s.groups.map(groupOut),
  unbudgeted: s.unbudgeted.map(unbudgetedOut),
  monthly_totals: many(s.monthly_totals),
  prior_year_total: fromCentsFieldOrNull(s.prior_year_total),
});
