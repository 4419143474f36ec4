import { type AppContext, serviceCtx } from "../../../http/context";
import { OverrideSuggestionsResponse, SuggestionsQuery } from "../schemas";
import { getOverrideSuggestions } from "../suggestions";
import { json, OverridesRoute } from "./base";

export class GetOverrideSuggestions extends OverridesRoute {
  override schema = {
    operationId: "getOverrideSuggestions",
    summary: "Overrides suggested by your own category corrections",
    description:
      "Companies whose manual corrections (single, edit or bulk) in the window agree: the leading category " +
      "has at least 2 corrections and more than all others together. Hidden when the overrides already give " +
      "that category, or when dismissed and not corrected again since.",
    request: { query: SuggestionsQuery },
    responses: { "200": json("Suggestions, most corrected first", OverrideSuggestionsResponse) },
  };

  override async handle(c: AppContext) {
    const { query } = await this.getValidatedData<typeof this.schema>();
    return c.json(await getOverrideSuggestions(serviceCtx(c), query.months));
  }
}
