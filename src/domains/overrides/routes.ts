import { domainRoute, errors, json, route } from "../../http/route";
import { contentJson } from "chanfana";
import {
  OverrideConsolidateRequest,
  OverrideConsolidateResponse,
  CompanyParam,
  OverrideDeleteResponse,
  DismissSuggestionRequest,
  SuggestionDismissResponse,
  OverrideSuggestionsResponse,
  SuggestionsQuery,
  OverrideDuplicatesResponse,
  OverrideListResponse,
  MatchQuery,
  OverrideMatchResponse,
  OverridePutRequest,
  DismissKeyParam,
  SuggestionUndismissResponse,
} from "./schemas";
import { consolidateOverrides, deleteOverride, listOverrides, putOverride } from "./service";
import { dismissSuggestion, getOverrideSuggestions, undismissSuggestion } from "./suggestions";
import { listOverrideDuplicates, matchOverride } from "./match";

export const OverridesRoute = domainRoute("overrides");

export const notFoundResponse = (what: string) => errors({ "404": what });

export const ConsolidateOverrides = route(OverridesRoute, {
  operationId: "consolidateOverrides",
  summary: "Replace a duplicate group by one override, atomically",
  description:
    "Every member must be an existing override (any case) normalizing to `normalized_key`, and the " +
    "category must be in the list; otherwise 422 and nothing changes.",
  request: { body: { ...contentJson(OverrideConsolidateRequest), required: true } },
  responses: { "200": json("Consolidated", OverrideConsolidateResponse) },
  handle: async (ctx, { body }) => consolidateOverrides(ctx, body),
});

export const DeleteOverride = route(OverridesRoute, {
  operationId: "deleteOverride",
  summary: "Remove the override of a company (404 when there is none)",
  description: "The resolver cache is invalidated at once. Journaled with before/after images (revertable).",
  request: { params: CompanyParam },
  responses: {
    "200": json("Removed", OverrideDeleteResponse),
    ...notFoundResponse("No override for this company"),
  },
  handle: async (ctx, { params }) => {
    await deleteOverride(ctx, params.company);
    return { ok: true };
  },
});

export const DismissOverrideSuggestion = route(OverridesRoute, {
  operationId: "dismissOverrideSuggestion",
  summary: "Hide a suggestion (kept under `company_lower|category_lower`)",
  description: "It comes back if the company is corrected to that category again after the dismissal.",
  request: { body: { ...contentJson(DismissSuggestionRequest), required: true } },
  responses: { "200": json("Dismissed", SuggestionDismissResponse) },
  handle: async (ctx, { body }) => dismissSuggestion(ctx, { company: body.company, category: body.category }),
});

export const GetOverrideSuggestions = route(OverridesRoute, {
  operationId: "getOverrideSuggestions",
  summary: "Overrides suggested by your own category corrections",
  description:
    "Companies whose manual corrections (single, edit or bulk) in the window agree: the leading category " +
    "has at least 2 corrections and more than all others together. Hidden when the overrides already give " +
    "that category, or when dismissed and not corrected again since.",
  request: { query: SuggestionsQuery },
  responses: { "200": json("Suggestions, most corrected first", OverrideSuggestionsResponse) },
  handle: async (ctx, { query }) => getOverrideSuggestions(ctx, query.months),
});

export const ListOverrideDuplicates = route(OverridesRoute, {
  operationId: "listOverrideDuplicates",
  summary: "Overrides whose companies collapse to the same normalized key",
  description: "A group whose members disagree on the category is skipped by tier 1 until consolidated.",
  responses: { "200": json("Duplicate groups, by normalized key", OverrideDuplicatesResponse) },
  handle: async (ctx) => listOverrideDuplicates(ctx),
});

export const ListOverrides = route(OverridesRoute, {
  operationId: "listOverrides",
  summary: "All company → category overrides with the list version",
  responses: { "200": json("The overrides, by company", OverrideListResponse) },
  handle: async (ctx) => listOverrides(ctx),
});

export const MatchOverride = route(OverridesRoute, {
  operationId: "matchOverride",
  summary: "Which override would apply to a company, and by which tier",
  description:
    "Tiers exact, normalized and alias mirror the categorizer (ambiguous normalized groups are skipped). " +
    "Fuzzy candidates (cosine similarity at or above `min_score`) need a model API key. At most 5 candidates.",
  request: { query: MatchQuery },
  responses: { "200": json("The top match and the candidates", OverrideMatchResponse) },
  handle: async (ctx, { query }) => matchOverride(ctx, { input: query }),
});

export const PutOverride = route(OverridesRoute, {
  operationId: "putOverride",
  summary: "Create or replace the override of a company (URL-encoded in the path)",
  description:
    "The category must be in the category list, any case (422 otherwise); it is stored as the list " +
    "spells it. The resolver cache is invalidated at once. Journaled with before/after images (revertable).",
  request: { params: CompanyParam, body: { ...contentJson(OverridePutRequest), required: true } },
  responses: { "200": json("The overrides after the write", OverrideListResponse) },
  handle: async (ctx, { params, body }) => {
    const { response } = await putOverride(ctx, {
      company: params.company,
      category: body.category,
    });
    return response;
  },
});

export const UndismissOverrideSuggestion = route(OverridesRoute, {
  operationId: "undismissOverrideSuggestion",
  summary: "Show a dismissed suggestion again",
  request: { params: DismissKeyParam },
  responses: {
    "200": json("Undismissed", SuggestionUndismissResponse),
    ...notFoundResponse("No dismissal under this key"),
  },
  handle: async (ctx, { params }) => undismissSuggestion(ctx, params.key),
});
