import { contentJson } from "chanfana";
import { json, route } from "../../../http/route";
import { OverrideConsolidateRequest, OverrideConsolidateResponse } from "../schemas";
import { consolidateOverrides } from "../service";
import { OverridesRoute } from "./base";

export const ConsolidateOverrides = route(OverridesRoute, {
  operationId: "consolidateOverrides",
  summary: "Replace a duplicate group by one override, atomically",
  description:
    "Every member must be an existing override (any case) normalizing to `normalized_key`, and the " +
    "category must be in the list; otherwise 422 and nothing changes.",
  request: { body: { ...contentJson(OverrideConsolidateRequest), required: true } },
  responses: { "200": json("Consolidated", OverrideConsolidateResponse) },
  handle: async (ctx, { body }) => consolidateOverrides(ctx, body),
});
