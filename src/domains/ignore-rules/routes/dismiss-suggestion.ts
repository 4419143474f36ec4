import { contentJson } from "chanfana";
import { json, route } from "../../../http/route";
import { IgnoreRuleSuggestionDismissRequest, IgnoreRuleSuggestionDismissResponse } from "../schemas";
import { dismissIgnoreSuggestion } from "../service";
import { IgnoreRulesRoute } from "./base";

export const DismissIgnoreRuleSuggestion = route(IgnoreRulesRoute, {
  operationId: "dismissIgnoreRuleSuggestion",
  summary: "Stop suggesting a merchant (until undismissed)",
  request: { body: { ...contentJson(IgnoreRuleSuggestionDismissRequest), required: true } },
  responses: { "200": json("Dismissed", IgnoreRuleSuggestionDismissResponse) },
  handle: async (ctx, { body }) => dismissIgnoreSuggestion(ctx, body.merchant),
});
