/** Insights request and response shapes (names from the reference's insights operations). */
import { z } from "zod";
import { Month } from "../transactions/schemas";

export const MonthQuery = z.object({ month: Month });
export const OptionalMonthQuery = z.object({
  month: Month.optional().describe("YYYY-MM; default the current month in the configured zone"),
});
export const InsightIdParam = z.object({ insight_id: z.string().min(1).max(64) });

export const BriefingFigure = z
  .object({
    raw: z.string().describe("As written, e.g. `$1,234` or `12.5%`"),
    kind: z.enum(["dollar", "percent"]),
    value: z.number().describe("The parsed magnitude"),
    snippet: z.string().describe("The surrounding text"),
  })
  .meta({ id: "BriefingFigure" });

export const BriefingValidation = z
  .object({
    ok: z.boolean().describe("True when every figure traces to the context the prompt was given"),
    summary: z
      .object({ total: z.number().int(), matched: z.number().int(), unmatched: z.number().int() })
      .meta({ id: "BriefingValidationSummary" }),
    unmatched: z.array(BriefingFigure),
  })
  .meta({ id: "BriefingValidation" });

const Obj = z.record(z.string(), z.unknown());
const num = z.number().nullable();

export const PaceCeiling = z
  .object({
    annual: z.number(),
    ytd_spent: z.number(),
    prorated_to_date: z.number().describe("annual x the elapsed part of the year"),
    variance_amount: z.number(),
    variance_pct: z.number(),
    projected_naive: z.number().describe("Year-to-date spending annualized"),
    projected_adjusted: z.number().describe("As naive, but lumpy categories at their annual amount"),
    method_note: z.string(),
  })
  .meta({ id: "PaceCeiling" });

export const PaceCategory = z
  .object({
    category: z.string(),
    category_type: z.string(),
    annual_target: z.number(),
    monthly_target: z.number(),
    month_actual: z.number(),
    ytd_actual: z.number(),
    assessment: z.string().describe("under / on_track / over; lumpy: not_yet_due / within_annual / over"),
    expected_to_date: num.optional().describe("Variable and fixed categories; null for lumpy ones"),
    variance_amount: num.optional(),
    variance_pct: num.optional(),
    pct_of_annual: num.optional().describe("Lumpy categories; null for the others"),
    remaining_expected: num.optional(),
  })
  .meta({ id: "PaceCategory" });

export const PaceUnbudgeted = z
  .object({ category: z.string(), ytd_actual: z.number(), month_actual: z.number() })
  .meta({ id: "PaceUnbudgeted" });

export const MonthProgress = z
  .object({
    days_elapsed: z.number().int(),
    days_in_month: z.number().int(),
    projected_month_end: z.number(),
  })
  .meta({ id: "MonthProgress", description: "Present only when the month is the current one." });

export const PaceBlock = z
  .object({
    months_elapsed: z.number().int(),
    ceiling: PaceCeiling,
    categories: z.array(PaceCategory),
    unbudgeted: z.array(PaceUnbudgeted),
    month_progress: MonthProgress.nullable().optional(),
  })
  .meta({
    id: "PaceBlock",
    description: "Budget-pace math precomputed for the model (null when the year has no targets).",
  });

export const SuspectedIgnored = z
  .object({
    company: z.string(),
    amount: z.number(),
    count: z.number().int(),
    historical_ignored_share: z
      .number()
      .describe("Share of the merchant's rows of the last 12 months marked ignored"),
  })
  .meta({ id: "SuspectedIgnored", description: "A merchant of this month the person usually ignores." });

export const SameMonthLastYear = z
  .object({
    year_month: z.string(),
    total_spending: z.number(),
    spending_count: z.number().int(),
    by_category: Obj,
    comments: z.array(Obj).describe("Last year's comments on that month's spending"),
  })
  .meta({ id: "SameMonthLastYear" });
export const InsightsContextResponse = z
  .object({
    generated_at: z.string(),
    month: z.string(),
    current_month: Obj,
    previous_month: Obj.nullable(),
    delta: z.record(z.string(), z.number()),
    pace: PaceBlock.nullable(),
    trend: z.array(Obj).describe("6 months ending at `month`"),
    same_month_last_year: SameMonthLastYear.nullable(),
    budget: Obj.nullable().describe("Targets and year to date; null without a spending ceiling"),
    historical_averages: Obj,
    category_deltas: z.array(Obj),
    anomalies: z.array(Obj),
    commented_transactions: z.array(Obj),
    largest_transactions: z.array(Obj),
    fixed_charges: z.array(Obj),
    recurring_annual: z.array(Obj),
    suspected_ignored: z.array(SuspectedIgnored),
    previous_briefing: z
      .object({ month: z.string(), generated_at: z.string(), excerpt: z.string() })
      .nullable(),
    user_memo: z.string().nullable(),
  })
  .meta({ id: "InsightsContextResponse" });

export const InsightsGenerateResponse = z
  .object({
    status: z.literal("running"),
    month: z.string(),
    task_id: z.string().describe("The job's id; GET /insights/status reports it"),
  })
  .meta({ id: "InsightsGenerateResponse" });

export const InsightsStatusResponse = z
  .object({
    status: z.enum(["idle", "running", "error"]),
    month: z.string().nullable(),
    started_at: z.string().nullable(),
    finished_at: z.string().nullable().optional(),
    error: z.string().nullable(),
    task_id: z.string().nullable(),
    phase: z.string().nullable().optional().describe("queued, context, writing, checking"),
    insight_id: z.string().nullable().optional().describe("The briefing the last finished job saved"),
  })
  .meta({ id: "InsightsStatusResponse" });

export const SavedInsightItem = z
  .object({
    id: z.string(),
    month: z.string(),
    generated_at: z.string(),
    figures_ok: z.boolean().nullable(),
  })
  .meta({ id: "SavedInsightItem" });

export const SavedInsightListResponse = z
  .object({ items: z.array(SavedInsightItem), count: z.number().int() })
  .meta({ id: "SavedInsightListResponse" });

export const SavedInsightDetail = z
  .object({
    id: z.string(),
    month: z.string(),
    generated_at: z.string(),
    content: z.string().describe("Markdown"),
    validation: BriefingValidation.nullable(),
  })
  .meta({ id: "SavedInsightDetail" });
