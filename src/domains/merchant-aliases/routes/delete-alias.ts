import { json, route } from "../../../http/route";
import { MerchantAliasMutationResponse, RawNameParam } from "../schemas";
import { deleteAlias } from "../service";
import { AliasRoute, NOT_FOUND } from "./base";

export const DeleteMerchantAlias = route(AliasRoute, {
  operationId: "deleteMerchantAlias",
  summary: "Remove an alias (404 when there is none)",
  description: "The resolver cache is invalidated at once. Journaled with before/after images (revertable).",
  request: { params: RawNameParam },
  responses: { "200": json("Removed", MerchantAliasMutationResponse), ...NOT_FOUND },
  handle: async (ctx, { params }) => {
    await deleteAlias(ctx, params.raw_name);
    return { ok: true };
  },
});
