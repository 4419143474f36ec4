import { type AppContext, serviceCtx } from "../../../http/context";
import { OverrideListResponse } from "../schemas";
import { listOverrides } from "../service";
import { json, OverridesRoute } from "./base";

export class ListOverrides extends OverridesRoute {
  override schema = {
    operationId: "listOverrides",
    summary: "All company → category overrides with the list version",
    responses: { "200": json("The overrides, by company", OverrideListResponse) },
  };

  override async handle(c: AppContext) {
    return c.json(await listOverrides(serviceCtx(c)));
  }
}
