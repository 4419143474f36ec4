import { type AppContext, serviceCtx } from "../../../http/context";
import { CompanyParam, OverrideDeleteResponse } from "../schemas";
import { deleteOverride } from "../service";
import { json, notFoundResponse, OverridesRoute } from "./base";

export class DeleteOverride extends OverridesRoute {
  override schema = {
    operationId: "deleteOverride",
    summary: "Remove the override of a company (404 when there is none)",
    description:
      "The resolver cache is invalidated at once. Journaled with before/after images (revertable).",
    request: { params: CompanyParam },
    responses: {
      "200": json("Removed", OverrideDeleteResponse),
      ...notFoundResponse("No override for this company"),
    },
  };

  override async handle(c: AppContext) {
    const { params } = await this.getValidatedData<typeof this.schema>();
    await deleteOverride(serviceCtx(c), params.company);
    return c.json({ ok: true });
  }
}
