import { json, route } from "../../../http/route";
import { IgnoreRuleSuggestionsResponse, IgnoreSuggestionsQuery } from "../schemas";
import { getIgnoreRuleSuggestions } from "../service";
import { IgnoreRulesRoute } from "./base";

export const GetIgnoreRuleSuggestions = route(IgnoreRulesRoute, {
  operationId: "getIgnoreRuleSuggestions",
  summary: "Merchants you usually ignore: at least 3 recent transactions, at least 60% ignored",
  description: "Merchants already pinned by a rule and dismissed merchants (any case) are left out.",
  request: { query: IgnoreSuggestionsQuery },
  responses: { "200": json("Suggestions, most ignored first", IgnoreRuleSuggestionsResponse) },
  handle: async (ctx, { query }) => getIgnoreRuleSuggestions(ctx, query.months),
});
