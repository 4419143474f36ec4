import { type AppContext, serviceCtx } from "../../../http/context";
import { IgnoreRuleSuggestionsResponse, IgnoreSuggestionsQuery } from "../schemas";
import { getIgnoreRuleSuggestions } from "../service";
import { IgnoreRulesRoute, json } from "./base";

export class GetIgnoreRuleSuggestions extends IgnoreRulesRoute {
  override schema = {
    operationId: "getIgnoreRuleSuggestions",
    summary: "Merchants you usually ignore: at least 3 recent transactions, at least 60% ignored",
    description: "Merchants already pinned by a rule and dismissed merchants (any case) are left out.",
    request: { query: IgnoreSuggestionsQuery },
    responses: { "200": json("Suggestions, most ignored first", IgnoreRuleSuggestionsResponse) },
  };

  override async handle(c: AppContext) {
    const { query } = await this.getValidatedData<typeof this.schema>();
    return c.json(await getIgnoreRuleSuggestions(serviceCtx(c), query.months));
  }
}
