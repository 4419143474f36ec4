import { z } from "zod";
import { Month } from "../transactions/schemas";

const Amount = z.object({ amount: z.number(), count: z.number().int() });
export const CategorySummary = Amount.meta({ id: "CategorySummary" });
export const CompanySummary = z
  .object({ amount: z.number(), count: z.number().int(), category: z.string() })
  .meta({ id: "CompanySummary" });
export const DepositSourceSummary = Amount.meta({ id: "DepositSourceSummary" });
export const TopCategory = z
  .object({ name: z.string(), amount: z.number(), count: z.number().int() })
  .meta({ id: "TopCategory" });

export const MonthSummary = z
  .object({
    year_month: z.string(),
    total_spending: z.number(),
    spending_count: z.number().int(),
    deposit_total: z.number(),
    deposit_count: z.number().int(),
    by_category: z.record(z.string(), CategorySummary),
    by_company: z.record(z.string(), CompanySummary),
    deposits_by_company: z.record(z.string(), DepositSourceSummary),
    top_categories: z.array(TopCategory),
  })
  .meta({ id: "MonthSummary" });
export type MonthSummary = z.infer<typeof MonthSummary>;

export const CategoryDelta = z
  .object({
    category: z.string(),
    current: z.number(),
    previous: z.number(),
    delta_amount: z.number(),
    delta_pct: z.number().nullable(),
  })
  .meta({ id: "CategoryDelta" });
export type CategoryDelta = z.infer<typeof CategoryDelta>;

export const CategoryAnomaly = z
  .object({
    category: z.string(),
    current: z.number(),
    baseline: z.number().describe("Average monthly spend over the prior 6 months"),
    severity: z.enum(["low", "medium", "high"]),
    reason: z.string(),
    annotated_amount: z
      .number()
      .default(0)
      .describe("Part of the deviation explained by commented transactions"),
  })
  .meta({ id: "CategoryAnomaly" });
export type CategoryAnomaly = z.infer<typeof CategoryAnomaly>;

export const MonthPaceInfo = z
  .object({
    day_of_month: z.number().int(),
    days_in_month: z.number().int(),
    month_to_date: z.number(),
    previous_to_date: z.number(),
    typical_to_date: z.number().nullable(),
    projected_month_total: z.number().nullable(),
    projected_lower: z.number().nullable(),
    projected_upper: z.number().nullable(),
    forecast_quality: z.enum(["forecast", "historical", "limited"]).nullable(),
    breakdown: z.null().default(null),
  })
  .meta({ id: "MonthPaceInfo" });
export type MonthPaceInfo = z.infer<typeof MonthPaceInfo>;

export const SummaryResponse = z
  .object({
    month: z.string(),
    total_spent: z.number(),
    deposits_by_company: z.record(z.string(), DepositSourceSummary),
    current: MonthSummary,
    previous: MonthSummary,
    delta_amount: z.number(),
    delta_percent: z.number().nullable(),
    category_deltas: z.array(CategoryDelta),
    anomalies: z.array(CategoryAnomaly),
    pace: z
      .union([MonthPaceInfo, z.null()])
      .describe("Only for the current month (in the configured time zone)"),
  })
  .meta({ id: "SummaryComparisonResponse" });

export const TrendMonthEntry = z
  .object({
    year_month: z.string(),
    total_spending: z.number(),
    spending_count: z.number().int(),
    by_category: z.record(z.string(), CategorySummary),
  })
  .meta({ id: "TrendMonthEntry" });
export const TrendResponse = z.object({ months: z.array(TrendMonthEntry) }).meta({ id: "TrendResponse" });

export const SummaryQuery = z.object({ month: Month });
export const TrendQuery = z.object({
  months: z.coerce.number().int().min(2).max(12).default(6),
  end_month: Month.optional(),
});
