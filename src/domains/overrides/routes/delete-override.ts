import { json, route } from "../../../http/route";
import { CompanyParam, OverrideDeleteResponse } from "../schemas";
import { deleteOverride } from "../service";
import { notFoundResponse, OverridesRoute } from "./base";

export const DeleteOverride = route(OverridesRoute, {
  operationId: "deleteOverride",
  summary: "Remove the override of a company (404 when there is none)",
  description: "The resolver cache is invalidated at once. Journaled with before/after images (revertable).",
  request: { params: CompanyParam },
  responses: {
    "200": json("Removed", OverrideDeleteResponse),
    ...notFoundResponse("No override for this company"),
  },
  handle: async (ctx, { params }) => {
    await deleteOverride(ctx, params.company);
    return { ok: true };
  },
});
