import { contentJson } from "chanfana";
import { type AppContext, serviceCtx } from "../../../http/context";
import { IgnoreRuleSuggestionDismissRequest, IgnoreRuleSuggestionDismissResponse } from "../schemas";
import { dismissIgnoreSuggestion } from "../service";
import { IgnoreRulesRoute, json } from "./base";

export class DismissIgnoreRuleSuggestion extends IgnoreRulesRoute {
  override schema = {
    operationId: "dismissIgnoreRuleSuggestion",
    summary: "Stop suggesting a merchant (until undismissed)",
    request: { body: { ...contentJson(IgnoreRuleSuggestionDismissRequest), required: true } },
    responses: { "200": json("Dismissed", IgnoreRuleSuggestionDismissResponse) },
  };

  override async handle(c: AppContext) {
    const { body } = await this.getValidatedData<typeof this.schema>();
    return c.json(await dismissIgnoreSuggestion(serviceCtx(c), body.merchant));
  }
}
