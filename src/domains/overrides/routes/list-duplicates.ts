import { type AppContext, serviceCtx } from "../../../http/context";
import { listOverrideDuplicates } from "../match";
import { OverrideDuplicatesResponse } from "../schemas";
import { json, OverridesRoute } from "./base";

export class ListOverrideDuplicates extends OverridesRoute {
  override schema = {
    operationId: "listOverrideDuplicates",
    summary: "Overrides whose companies collapse to the same normalized key",
    description: "A group whose members disagree on the category is skipped by tier 1 until consolidated.",
    responses: { "200": json("Duplicate groups, by normalized key", OverrideDuplicatesResponse) },
  };

  override async handle(c: AppContext) {
    return c.json(await listOverrideDuplicates(serviceCtx(c)));
  }
}
