import { json, route } from "../../../http/route";
import { OverrideSuggestionsResponse, SuggestionsQuery } from "../schemas";
import { getOverrideSuggestions } from "../suggestions";
import { OverridesRoute } from "./base";

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
