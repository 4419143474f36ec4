/** Budget status shapes (named like the reference components). */
import { z } from "zod";
import { CategoryType, InputMode, Year } from "./schemas";

const PaceStatusValue = z
  .enum(["under", "on_track", "over"])
  .describe("on_track within 10% of the expected pace; under/over beyond it");
const num = z.number().nullable();

export const BudgetStatusQuery = z.object({
  year: Year,
  compare_year: Year.nullable().optional().describe("Year of the prior totals (default: year - 1)"),
});

export const PaceStatus = z
  .object({
    spending_ceiling: z.number(),
    ytd_spent: z.number().describe("All spending of the year through as_of"),
    expected_pace: z.number().describe("spending_ceiling x elapsed_year_fraction"),
    variance: z.number().describe("ytd_spent - expected_pace (positive: ahead of pace)"),
    status: PaceStatusValue,
    headline: z.string(),
    projected_month_total: num
      .optional()
      .describe("Projected current-month spend across budgeted non-lumpy categories; null when unavailable"),
    projected_month_status: PaceStatusValue.nullable()
      .optional()
      .describe("Projected total vs the same categories' combined monthly budget"),
  })
  .meta({ id: "PaceStatus" });

export const CategoryPaceDetail = z
  .object({
    category: z.string(),
    target: z.number(),
    input_mode: InputMode,
    monthly_amount: z.number(),
    category_type: CategoryType,
    current_month_spent: z.number(),
    current_month_expected: z.number().describe("monthly_amount x elapsed fraction of the current month"),
    ytd_spent: z.number(),
    ytd_expected: z.number().describe("target x elapsed_year_fraction"),
    variance: z.number().describe("ytd_spent - ytd_expected"),
    pace_percent: z.number().describe("ytd_spent / ytd_expected x 100 (0 when nothing is expected yet)"),
    status: PaceStatusValue,
    monthly_spent: z.array(z.number()).describe("12 monthly totals of the year"),
    prior_year_total: num,
    forecast_month_total: num
      .optional()
      .describe("Projected month-end total. Variable and fixed categories only."),
    forecast_lower: num.optional().describe("P25 of the projection. None when history is too thin."),
    forecast_upper: num.optional().describe("P75 of the projection. None when history is too thin."),
    forecast_pct: num
      .optional()
      .describe("Projection as a percent of the monthly budget. None when the budget is 0."),
    forecast_quality: z
      .enum(["forecast", "historical", "limited", "committed"])
      .nullable()
      .optional()
      .describe(
        "forecast = curve-based projection; historical = typical-month average (early month or few " +
          "transactions); limited = linear extrapolation from <2 months of history; committed = a " +
          "recurring-dominated category (>=70% of its trailing mean is expected recurring charges), " +
          "projected as spent + still-expected recurring charges + everyday remainder (bounds null).",
      ),
  })
  .meta({ id: "CategoryPaceDetail" });
export type CategoryPaceDetail = z.infer<typeof CategoryPaceDetail>;

export const GroupPace = z
  .object({
    name: z.string(),
    budgeted_total: z.number(),
    ytd_spent: z.number(),
    expected_pace: z.number(),
    variance: z.number(),
    status: PaceStatusValue,
    categories: z.array(CategoryPaceDetail),
    monthly_totals: z.array(z.number()),
    prior_year_total: num,
  })
  .meta({ id: "GroupPace" });
export type GroupPace = z.infer<typeof GroupPace>;

export const UnbudgetedCategory = z
  .object({
    category: z.string(),
    ytd_spent: z.number(),
    monthly_avg_historical: z
      .number()
      .describe("Average of the 6 months before the as-of month (months with data)"),
    current_month_spent: z.number(),
  })
  .meta({ id: "UnbudgetedCategory" });

export const BudgetStatusResponse = z
  .object({
    year: z.number().int(),
    as_of: z.string().describe("The local date (YYYY-MM-DD) the pace is measured at"),
    elapsed_year_fraction: z.number(),
    overall: PaceStatus,
    groups: z
      .array(GroupPace)
      .describe("Configured groups, then `Ungrouped` for budgeted categories in no group"),
    unbudgeted: z.array(UnbudgetedCategory),
    monthly_totals: z.array(z.number()),
    prior_year_total: num,
    compare_year: z.number().int().nullable(),
  })
  .meta({ id: "BudgetStatusResponse" });
export type BudgetStatusResponse = z.infer<typeof BudgetStatusResponse>;
