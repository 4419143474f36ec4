import { contentJson } from "chanfana";
import { json, route } from "../../../http/route";
import { CompanyParam, OverrideListResponse, OverridePutRequest } from "../schemas";
import { putOverride } from "../service";
import { OverridesRoute } from "./base";

export const PutOverride = route(OverridesRoute, {
  operationId: "putOverride",
  summary: "Create or replace the override of a company (URL-encoded in the path)",
  description:
    "The category must be in the category list, any case (422 otherwise); it is stored as the list " +
    "spells it. The resolver cache is invalidated at once. Journaled with before/after images (revertable).",
  request: { params: CompanyParam, body: { ...contentJson(OverridePutRequest), required: true } },
  responses: { "200": json("The overrides after the write", OverrideListResponse) },
  handle: async (ctx, { params, body }) => {
    const { response } = await putOverride(ctx, {
      company: params.company,
      category: body.category,
    });
    return response;
  },
});
