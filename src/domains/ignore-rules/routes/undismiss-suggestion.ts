import { json, route } from "../../../http/route";
import { IgnoreRuleSuggestionUndismissResponse, MerchantParam } from "../schemas";
import { undismissIgnoreSuggestion } from "../service";
import { IgnoreRulesRoute, notFoundResponse } from "./base";

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
