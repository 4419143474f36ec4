import { json, route } from "../../../http/route";
import { DismissKeyParam, SuggestionUndismissResponse } from "../schemas";
import { undismissSuggestion } from "../suggestions";
import { notFoundResponse, OverridesRoute } from "./base";

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
