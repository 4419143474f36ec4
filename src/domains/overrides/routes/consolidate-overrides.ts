import { contentJson } from "chanfana";
import { type AppContext, serviceCtx } from "../../../http/context";
import { OverrideConsolidateRequest, OverrideConsolidateResponse } from "../schemas";
import { consolidateOverrides } from "../service";
import { json, OverridesRoute } from "./base";

export class ConsolidateOverrides extends OverridesRoute {
  override schema = {
    operationId: "consolidateOverrides",
    summary: "Replace a duplicate group by one override, atomically",
    description:
      "Every member must be an existing override (any case) normalizing to `normalized_key`, and the " +
      "category must be in the list; otherwise 422 and nothing changes.",
    request: { body: { ...contentJson(OverrideConsolidateRequest), required: true } },
    responses: { "200": json("Consolidated", OverrideConsolidateResponse) },
  };

  override async handle(c: AppContext) {
    const { body } = await this.getValidatedData<typeof this.schema>();
    return c.json(await consolidateOverrides(serviceCtx(c), body));
  }
}
