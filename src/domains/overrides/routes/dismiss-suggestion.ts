import { contentJson } from "chanfana";
import { type AppContext, serviceCtx } from "../../../http/context";
import { DismissSuggestionRequest, SuggestionDismissResponse } from "../schemas";
import { dismissSuggestion } from "../suggestions";
import { json, OverridesRoute } from "./base";

export class DismissOverrideSuggestion extends OverridesRoute {
  override schema = {
    operationId: "dismissOverrideSuggestion",
    summary: "Hide a suggestion (kept under `company_lower|category_lower`)",
    description: "It comes back if the company is corrected to that category again after the dismissal.",
    request: { body: { ...contentJson(DismissSuggestionRequest), required: true } },
    responses: { "200": json("Dismissed", SuggestionDismissResponse) },
  };

  override async handle(c: AppContext) {
    const { body } = await this.getValidatedData<typeof this.schema>();
    return c.json(await dismissSuggestion(serviceCtx(c), { company: body.company, category: body.category }));
  }
}
