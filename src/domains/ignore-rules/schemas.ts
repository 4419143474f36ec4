import { createSelectSchema } from "drizzle-zod";
import { z } from "zod";
import { dismissedIgnoreSuggestions, ignoreRules } from "../../db/schema";

const Merchant = z.string().trim().min(1, "must not be empty").max(200, "must be at most 200 characters");

export const IgnoreRuleEntry = createSelectSchema(ignoreRules)
  .pick({ pattern: true })
  .meta({ id: "IgnoreRuleEntry" });

export const IgnoreRuleListResponse = z
  .object({ rules: z.array(IgnoreRuleEntry), count: z.number().int(), version: z.number().int() })
  .meta({ id: "IgnoreRuleListResponse", description: "Merchants pinned to Ignored, by pattern." });
export type IgnoreRuleListResponse = z.infer<typeof IgnoreRuleListResponse>;

export const IgnoreRuleAddRequest = z
  .object({
    pattern: Merchant.describe("A merchant name; matched like an override key (exact, normalized, alias)"),
  })
  .strict()
  .meta({ id: "IgnoreRuleAddRequest" });

export const PatternParam = z.object({ pattern: Merchant.describe("The rule's pattern, URL-encoded") });

export const IgnoreRuleDeleteResponse = z
  .object({ detail: z.string() })
  .meta({ id: "IgnoreRuleDeleteResponse" });

export const IgnoreRuleApplyRequest = z
  .object({
    pattern: Merchant.nullable().optional().describe("One rule to apply; null or absent applies every rule"),
  })
  .strict()
  .meta({ id: "IgnoreRuleApplyRequest" });

export const IgnoreRuleApplyResult = z
  .object({ pattern: z.string(), matched: z.number().int(), updated: z.number().int() })
  .meta({ id: "IgnoreRuleApplyResult" });
export type IgnoreRuleApplyResult = z.infer<typeof IgnoreRuleApplyResult>;

export const IgnoreRuleApplyResponse = z
  .object({
    results: z.array(IgnoreRuleApplyResult),
    total_matched: z.number().int(),
    total_updated: z.number().int(),
  })
  .meta({ id: "IgnoreRuleApplyResponse" });

export const IgnoreRuleSuggestion = z
  .object({
    merchant: z.string(),
    total_count: z.number().int(),
    ignored_count: z.number().int(),
    share: z.number(),
  })
  .meta({ id: "IgnoreRuleSuggestion" });
export type IgnoreRuleSuggestion = z.infer<typeof IgnoreRuleSuggestion>;

export const IgnoreRuleSuggestionsResponse = z
  .object({ suggestions: z.array(IgnoreRuleSuggestion), count: z.number().int() })
  .meta({ id: "IgnoreRuleSuggestionsResponse" });

export const IgnoreSuggestionsQuery = z.object({
  months: z.number().int().min(1).max(24).default(12).describe("How many months of transactions to read"),
});

/** A dismissal as stored (the table is the shape's source). */
export const DismissedIgnoreRuleSuggestion = createSelectSchema(dismissedIgnoreSuggestions).meta({
  id: "DismissedIgnoreRuleSuggestion",
});

export const DismissedIgnoreRuleSuggestionsResponse = z
  .object({ dismissed: z.array(DismissedIgnoreRuleSuggestion), count: z.number().int() })
  .meta({ id: "DismissedIgnoreRuleSuggestionsResponse" });

export const IgnoreRuleSuggestionDismissRequest = z
  .object({ merchant: Merchant })
  .strict()
  .meta({ id: "IgnoreRuleSuggestionDismissRequest" });

export const IgnoreRuleSuggestionDismissResponse = z
  .object({ detail: z.string() })
  .meta({ id: "IgnoreRuleSuggestionDismissResponse" });

export const IgnoreRuleSuggestionUndismissResponse = z
  .object({ detail: z.string() })
  .meta({ id: "IgnoreRuleSuggestionUndismissResponse" });

export const MerchantParam = z.object({ merchant: Merchant.describe("The dismissed merchant, URL-encoded") });
