import { type AppContext, serviceCtx } from "../../../http/context";
import { MerchantAliasMutationResponse, RawNameParam } from "../schemas";
import { deleteAlias } from "../service";
import { AliasRoute, json, NOT_FOUND } from "./base";

export class DeleteMerchantAlias extends AliasRoute {
  override schema = {
    operationId: "deleteMerchantAlias",
    summary: "Remove an alias (404 when there is none)",
    description:
      "The resolver cache is invalidated at once. Journaled with before/after images (revertable).",
    request: { params: RawNameParam },
    responses: { "200": json("Removed", MerchantAliasMutationResponse), ...NOT_FOUND },
  };

  override async handle(c: AppContext) {
    const { params } = await this.getValidatedData<typeof this.schema>();
    await deleteAlias(serviceCtx(c), params.raw_name);
    return c.json({ ok: true });
  }
}
