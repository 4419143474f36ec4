import { domainRoute, errors, json, route } from "../../http/route";
import { contentJson } from "chanfana";
import { ErrorEnvelope } from "../../http/errors";
import {
  IgnoreRuleAddRequest,
  IgnoreRuleListResponse,
  IgnoreRuleApplyRequest,
  IgnoreRuleApplyResponse,
  IgnoreRuleDeleteResponse,
  PatternParam,
  IgnoreRuleSuggestionDismissRequest,
  IgnoreRuleSuggestionDismissResponse,
  IgnoreRuleSuggestionsResponse,
  IgnoreSuggestionsQuery,
  DismissedIgnoreRuleSuggestionsResponse,
  IgnoreRuleSuggestionUndismissResponse,
  MerchantParam,
} from "./schemas";
import {
  addIgnoreRule,
  applyIgnoreRules,
  deleteIgnoreRule,
  dismissIgnoreSuggestion,
  getIgnoreRuleSuggestions,
  listDismissedIgnoreSuggestions,
  listIgnoreRules,
  undismissIgnoreSuggestion,
} from "./service";

export const IgnoreRulesRoute = domainRoute("ignore-rules");

export const notFoundResponse = (what: string) => errors({ "404": what });

export const AddIgnoreRule = route(IgnoreRulesRoute, {
  operationId: "addIgnoreRule",
  summary: "Pin a merchant to Ignored",
  description:
    "New transactions whose company matches (exactly, after normalization, or through an alias) are " +
    "stored Ignored; existing rows change only through `POST /api/v1/ignore-rules/apply`.",
  request: { body: { ...contentJson(IgnoreRuleAddRequest), required: true } },
  responses: {
    "200": json("The rules after the add", IgnoreRuleListResponse),
    "409": json("A rule with this pattern (any case) exists", ErrorEnvelope),
  },
  handle: async (ctx, { body }) => addIgnoreRule(ctx, body.pattern),
});

export const ApplyIgnoreRules = route(IgnoreRulesRoute, {
  operationId: "applyIgnoreRules",
  summary: "Backfill: set Ignored on existing transactions matching one rule or all rules",
  description:
    "Only non-deleted rows that are not ignored yet change, so a rerun is a no-op. `matched` counts every " +
    "non-deleted row a rule fires on; `updated` counts the rows this call flipped.",
  request: { body: { ...contentJson(IgnoreRuleApplyRequest), required: true } },
  responses: {
    "200": json("Per-rule counts", IgnoreRuleApplyResponse),
    ...notFoundResponse("No rule with this pattern"),
  },
  handle: async (ctx, { body }) => applyIgnoreRules(ctx, body.pattern),
});

export const DeleteIgnoreRule = route(IgnoreRulesRoute, {
  operationId: "deleteIgnoreRule",
  summary: "Remove an ignore rule (rows it ignored stay ignored)",
  request: { params: PatternParam },
  responses: {
    "200": json("Removed", IgnoreRuleDeleteResponse),
    ...notFoundResponse("No rule with this pattern"),
  },
  handle: async (ctx, { params }) => deleteIgnoreRule(ctx, params.pattern),
});

export const DismissIgnoreRuleSuggestion = route(IgnoreRulesRoute, {
  operationId: "dismissIgnoreRuleSuggestion",
  summary: "Stop suggesting a merchant (until undismissed)",
  request: { body: { ...contentJson(IgnoreRuleSuggestionDismissRequest), required: true } },
  responses: { "200": json("Dismissed", IgnoreRuleSuggestionDismissResponse) },
  handle: async (ctx, { body }) => dismissIgnoreSuggestion(ctx, body.merchant),
});

export const GetIgnoreRuleSuggestions = route(IgnoreRulesRoute, {
  operationId: "getIgnoreRuleSuggestions",
  summary: "Merchants you usually ignore: at least 3 recent transactions, at least 60% ignored",
  description: "Merchants already pinned by a rule and dismissed merchants (any case) are left out.",
  request: { query: IgnoreSuggestionsQuery },
  responses: { "200": json("Suggestions, most ignored first", IgnoreRuleSuggestionsResponse) },
  handle: async (ctx, { query }) => getIgnoreRuleSuggestions(ctx, query.months),
});

export const ListDismissedIgnoreRuleSuggestions = route(IgnoreRulesRoute, {
  operationId: "listDismissedIgnoreRuleSuggestions",
  summary: "Dismissed ignore-rule suggestions, newest first",
  responses: { "200": json("The dismissed merchants", DismissedIgnoreRuleSuggestionsResponse) },
  handle: async (ctx) => listDismissedIgnoreSuggestions(ctx),
});

export const ListIgnoreRules = route(IgnoreRulesRoute, {
  operationId: "listIgnoreRules",
  summary: "Merchants pinned to Ignored, with the list version",
  responses: { "200": json("The rules, by pattern", IgnoreRuleListResponse) },
  handle: async (ctx) => listIgnoreRules(ctx),
});

export const UndismissIgnoreRuleSuggestion = route(IgnoreRulesRoute, {
  operationId: "undismissIgnoreRuleSuggestion",
  summary: "Suggest a dismissed merchant again",
  request: { params: MerchantParam },
  responses: {
    "200": json("Undismissed", IgnoreRuleSuggestionUndismissResponse),
    ...notFoundResponse("This merchant is not dismissed"),
  },
  handle: async (ctx, { params }) => undismissIgnoreSuggestion(ctx, params.merchant),
});
