import { z } from "zod";
import { MONTH_RE } from "../../lib/month";

const MAX_WINDOW_MONTHS = 24;

export const MerchantIntelligenceQuery = z.object({
  month: z
    .string()
    .regex(MONTH_RE, "must be a month as YYYY-MM")
    .optional()
    .describe("Last month of the window, YYYY-MM (default: the current month in the configured timezone)"),
  months: z.coerce
    .number()
    .int()
    .min(1)
    .max(MAX_WINDOW_MONTHS)
    .default(6)
    .describe("Lookback window in months, ending at `month` (default 6, max 24)"),
});

export const MerchantPriceChange = z
  .object({
    old_amount: z.number().describe("Baseline: the most common earlier amount"),
    new_amount: z.number().describe("The latest amount"),
    since_month: z.string().describe("YYYY-MM month the new price first appeared"),
  })
  .meta({ id: "MerchantPriceChange", description: "Latest detected price change for a recurring merchant." });

export const MerchantRecord = z
  .object({
    company: z.string(),
    total: z.number(),
    monthly_amounts: z.array(z.number()).describe("Per window month, oldest first"),
    monthly_counts: z.array(z.number().int()).describe("Per window month, oldest first"),
    months_active: z.number().int(),
    avg_amount: z.number().describe("Total ÷ months active"),
    frequency_type: z
      .enum(["fixed", "variable", "lumpy", "none"])
      .describe(
        "fixed: same amount (±0.01) in 3+ months; variable: charged in 2/3 of the window's months; " +
          "lumpy: 2+ months otherwise; none: one month",
      ),
    category: z.string().describe("The merchant's most frequent category (lowercased)"),
    is_recurring: z
      .boolean()
      .describe(
        "Its charges keep a regular cadence (weekly … yearly) with similar amounts, and it has not churned",
      ),
    cadence: z
      .enum(["weekly", "every two weeks", "monthly", "quarterly", "yearly"])
      .nullable()
      .describe("The regular cadence of its charges; null when it keeps none (a grocery store, an ATM)"),
    usual_charge: z
      .number()
      .nullable()
      .describe("The usual amount of one charge (the median of the latest three); null when not recurring"),
    is_new: z.boolean().describe("First seen in the window's last month"),
    is_churned: z.boolean().describe("Regular before, absent in the last 2 months"),
    price_change: z.union([MerchantPriceChange, z.null()]),
  })
  .meta({ id: "MerchantRecord", description: "Per-merchant intelligence over the analyzed window." });

export const MerchantIntelligencePeriod = z
  .object({ from: z.string(), to: z.string() })
  .meta({ id: "MerchantIntelligencePeriod", description: "Inclusive window of months consumed." });

export const MerchantPriceChangeRow = z
  .object({ merchant: z.string(), old_amount: z.number(), new_amount: z.number(), since_month: z.string() })
  .meta({ id: "MerchantPriceChangeRow", description: "Flattened price-change entry for the summary." });

export const MerchantIntelligenceSummary = z
  .object({
    recurring_burn_rate: z
      .number()
      .describe(
        "Committed monthly spend: each recurring merchant's usual charge times its occurrences a month",
      ),
    recurring_count: z.number().int(),
    discretionary_this_month: z.number().describe("The window's last month: total spend − burn rate (≥ 0)"),
    new_merchants: z.array(z.string()),
    churned_merchants: z.array(z.string()),
    price_changes: z.array(MerchantPriceChangeRow),
  })
  .meta({ id: "MerchantIntelligenceSummary", description: "Aggregate roll-up across all merchants." });

export const MerchantIntelligenceResponse = z
  .object({
    month: z.string(),
    months_analyzed: z.number().int(),
    period: MerchantIntelligencePeriod,
    merchants: z.array(MerchantRecord),
    summary: MerchantIntelligenceSummary,
  })
  .meta({
    id: "MerchantIntelligenceResponse",
    description: "Recurring, price-change, new, churned, burn rate.",
  });
export type MerchantIntelligenceResponse = z.infer<typeof MerchantIntelligenceResponse>;
