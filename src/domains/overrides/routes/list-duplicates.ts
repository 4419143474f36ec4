import { json, route } from "../../../http/route";
import { listOverrideDuplicates } from "../match";
import { OverrideDuplicatesResponse } from "../schemas";
import { OverridesRoute } from "./base";

export const ListOverrideDuplicates = route(OverridesRoute, {
  operationId: "listOverrideDuplicates",
  summary: "Overrides whose companies collapse to the same normalized key",
  description: "A group whose members disagree on the category is skipped by tier 1 until consolidated.",
  responses: { "200": json("Duplicate groups, by normalized key", OverrideDuplicatesResponse) },
  handle: async (ctx) => listOverrideDuplicates(ctx),
});
