import { contentJson } from "chanfana";
import { type AppContext, serviceCtx } from "../../../http/context";
import { CompanyParam, OverrideListResponse, OverridePutRequest } from "../schemas";
import { putOverride } from "../service";
import { json, OverridesRoute } from "./base";

export class PutOverride extends OverridesRoute {
  override schema = {
    operationId: "putOverride",
    summary: "Create or replace the override of a company (URL-encoded in the path)",
    description:
      "The category must be in the category list, any case (422 otherwise); it is stored as the list " +
      "spells it. The resolver cache is invalidated at once. Journaled with before/after images (revertable).",
    request: { params: CompanyParam, body: { ...contentJson(OverridePutRequest), required: true } },
    responses: { "200": json("The overrides after the write", OverrideListResponse) },
  };

  override async handle(c: AppContext) {
    const { params, body } = await this.getValidatedData<typeof this.schema>();
    const { response } = await putOverride(serviceCtx(c), {
      company: params.company,
      category: body.category,
    });
    return c.json(response);
  }
}
