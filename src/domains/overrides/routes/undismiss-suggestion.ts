import { type AppContext, serviceCtx } from "../../../http/context";
import { DismissKeyParam, SuggestionUndismissResponse } from "../schemas";
import { undismissSuggestion } from "../suggestions";
import { json, notFoundResponse, OverridesRoute } from "./base";

export class UndismissOverrideSuggestion extends OverridesRoute {
  override schema = {
    operationId: "undismissOverrideSuggestion",
    summary: "Show a dismissed suggestion again",
    request: { params: DismissKeyParam },
    responses: {
      "200": json("Undismissed", SuggestionUndismissResponse),
      ...notFoundResponse("No dismissal under this key"),
    },
  };

  override async handle(c: AppContext) {
    const { params } = await this.getValidatedData<typeof this.schema>();
    return c.json(await undismissSuggestion(serviceCtx(c), params.key));
  }
}
