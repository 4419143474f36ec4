import { type AppContext, serviceCtx } from "../../../http/context";
import { IgnoreRuleSuggestionUndismissResponse, MerchantParam } from "../schemas";
import { undismissIgnoreSuggestion } from "../service";
import { IgnoreRulesRoute, json, notFoundResponse } from "./base";

export class UndismissIgnoreRuleSuggestion extends IgnoreRulesRoute {
  override schema = {
    operationId: "undismissIgnoreRuleSuggestion",
    summary: "Suggest a dismissed merchant again",
    request: { params: MerchantParam },
    responses: {
      "200": json("Undismissed", IgnoreRuleSuggestionUndismissResponse),
      ...notFoundResponse("This merchant is not dismissed"),
    },
  };

  override async handle(c: AppContext) {
    const { params } = await this.getValidatedData<typeof this.schema>();
    return c.json(await undismissIgnoreSuggestion(serviceCtx(c), params.merchant));
  }
}
