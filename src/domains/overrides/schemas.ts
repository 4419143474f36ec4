import { createSelectSchema } from "drizzle-zod";
import { z } from "zod";
import { overrides } from "../../db/schema";

/** A merchant name as sent by a client: trimmed, 1-200 characters. */
export const Company = z
  .string()
  .trim()
  .min(1, "must not be empty")
  .max(200, "must be at most 200 characters");
const Category = z.string().trim().min(1, "must not be empty").max(60, "must be at most 60 characters");

/** An override as listed: the overrides row without its times. */
const OverrideRow = createSelectSchema(overrides).pick({ company: true, category: true });

export const OverrideEntry = OverrideRow.meta({ id: "OverrideEntry" });

export const OverrideListResponse = z
  .object({
    overrides: z.array(OverrideEntry),
    count: z.number().int(),
    version: z.number().int().describe("Bumped by every override write"),
  })
  .meta({ id: "OverrideListResponse", description: "Company → category overrides, by company." });
export type OverrideListResponse = z.infer<typeof OverrideListResponse>;

export const OverridePutRequest = z
  .object({ category: Category.describe("Must be in the category list (any case)") })
  .strict()
  .meta({ id: "OverridePutRequest" });

export const OverrideDeleteResponse = z
  .object({ ok: z.boolean().default(true) })
  .meta({ id: "OverrideDeleteResponse" });

export const CompanyParam = z.object({ company: Company.describe("The override key, URL-encoded") });

export const OverrideSuggestion = z
  .object({
    company: z.string(),
    suggested_category: z.string(),
    correction_count: z.number().int(),
    last_corrected: z.string(),
  })
  .meta({ id: "OverrideSuggestion" });
export type OverrideSuggestion = z.infer<typeof OverrideSuggestion>;

export const OverrideSuggestionsResponse = z
  .object({ suggestions: z.array(OverrideSuggestion), count: z.number().int() })
  .meta({ id: "OverrideSuggestionsResponse" });

export const SuggestionsQuery = z.object({
  months: z.number().int().min(1).max(24).default(12).describe("How many months of corrections to read"),
});

export const DismissSuggestionRequest = z
  .object({ company: Company, category: Category })
  .strict()
  .meta({ id: "DismissSuggestionRequest" });

export const SuggestionDismissResponse = z
  .object({ detail: z.string() })
  .meta({ id: "SuggestionDismissResponse" });
export const SuggestionUndismissResponse = z
  .object({ detail: z.string() })
  .meta({ id: "SuggestionUndismissResponse" });

export const DismissKeyParam = z.object({
  key: z.string().trim().min(3).max(300).describe("`company_lower|category_lower`, URL-encoded"),
});

const Tier = z.enum(["exact", "normalized", "alias", "fuzzy"]);

export const OverrideMatchCandidate = z
  .object({ category: z.string(), matched_rule: z.string(), confidence: z.number(), tier: Tier })
  .meta({ id: "OverrideMatchCandidate" });
export type OverrideMatchCandidate = z.infer<typeof OverrideMatchCandidate>;

export const OverrideMatchResponse = z
  .object({
    category: z.string().nullable(),
    matched_rule: z.string().nullable(),
    confidence: z.number().nullable(),
    tier: Tier.nullable(),
    candidates: z.array(OverrideMatchCandidate),
  })
  .meta({
    id: "OverrideMatchResponse",
    description:
      "The override that would apply (the top candidate) and up to 5 candidates; all null when none.",
  });

export const MatchQuery = z.object({
  company: z.string().min(1).max(200).describe("Raw company name to resolve"),
  include_history: z
    .boolean()
    .default(false)
    .describe("Also embed past transactions' companies for fuzzy candidates (needs a model API key)"),
  min_score: z.number().min(0).max(1).default(0.7).describe("Minimum cosine similarity of fuzzy candidates"),
});

export const OverrideDuplicateMember = OverrideRow.meta({ id: "OverrideDuplicateMember" });

export const OverrideDuplicateGroup = z
  .object({
    normalized_key: z.string(),
    members: z.array(OverrideDuplicateMember),
    unanimous_category: z
      .string()
      .nullable()
      .describe("Null when members disagree (the group is skipped by tier 1)"),
  })
  .meta({ id: "OverrideDuplicateGroup" });
export type OverrideDuplicateGroup = z.infer<typeof OverrideDuplicateGroup>;

export const OverrideDuplicatesResponse = z
  .object({ groups: z.array(OverrideDuplicateGroup), count: z.number().int() })
  .meta({ id: "OverrideDuplicatesResponse" });

export const OverrideConsolidateRequest = z
  .object({
    normalized_key: z.string().trim().min(1).max(200),
    canonical_company: Company,
    category: Category,
    members: z.array(Company).min(1).max(200),
  })
  .strict()
  .meta({
    id: "OverrideConsolidateRequest",
    description: "Replace member overrides by one override, atomically (all or nothing).",
  });

export const OverrideConsolidateResponse = z
  .object({ detail: z.string(), canonical: z.string() })
  .meta({ id: "OverrideConsolidateResponse" });
