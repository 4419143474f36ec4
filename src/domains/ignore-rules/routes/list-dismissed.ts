import { json, route } from "../../../http/route";
import { DismissedIgnoreRuleSuggestionsResponse } from "../schemas";
import { listDismissedIgnoreSuggestions } from "../service";
import { IgnoreRulesRoute } from "./base";

export const ListDismissedIgnoreRuleSuggestions = route(IgnoreRulesRoute, {
  operationId: "listDismissedIgnoreRuleSuggestions",
  summary: "Dismissed ignore-rule suggestions, newest first",
  responses: { "200": json("The dismissed merchants", DismissedIgnoreRuleSuggestionsResponse) },
  handle: async (ctx) => listDismissedIgnoreSuggestions(ctx),
});
