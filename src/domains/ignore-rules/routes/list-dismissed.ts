import { type AppContext, serviceCtx } from "../../../http/context";
import { DismissedIgnoreRuleSuggestionsResponse } from "../schemas";
import { listDismissedIgnoreSuggestions } from "../service";
import { IgnoreRulesRoute, json } from "./base";

export class ListDismissedIgnoreRuleSuggestions extends IgnoreRulesRoute {
  override schema = {
    operationId: "listDismissedIgnoreRuleSuggestions",
    summary: "Dismissed ignore-rule suggestions, newest first",
    responses: { "200": json("The dismissed merchants", DismissedIgnoreRuleSuggestionsResponse) },
  };

  override async handle(c: AppContext) {
    return c.json(await listDismissedIgnoreSuggestions(serviceCtx(c)));
  }
}
