import { contentJson } from "chanfana";
import { json, route } from "../../../http/route";
import { DismissSuggestionRequest, SuggestionDismissResponse } from "../schemas";
import { dismissSuggestion } from "../suggestions";
import { OverridesRoute } from "./base";

export const DismissOverrideSuggestion = route(OverridesRoute, {
  operationId: "dismissOverrideSuggestion",
  summary: "Hide a suggestion (kept under `company_lower|category_lower`)",
  description: "It comes back if the company is corrected to that category again after the dismissal.",
  request: { body: { ...contentJson(DismissSuggestionRequest), required: true } },
  responses: { "200": json("Dismissed", SuggestionDismissResponse) },
  handle: async (ctx, { body }) => dismissSuggestion(ctx, { company: body.company, category: body.category }),
});
