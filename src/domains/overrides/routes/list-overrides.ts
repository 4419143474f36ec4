import { json, route } from "../../../http/route";
import { OverrideListResponse } from "../schemas";
import { listOverrides } from "../service";
import { OverridesRoute } from "./base";

export const ListOverrides = route(OverridesRoute, {
  operationId: "listOverrides",
  summary: "All company → category overrides with the list version",
  responses: { "200": json("The overrides, by company", OverrideListResponse) },
  handle: async (ctx) => listOverrides(ctx),
});
