import { json, route } from "../../../http/route";
import { BlockedCompanyDeleteResponse, BlockedCompanyParam } from "../schemas";
import { unblockCompany } from "../service";
import { BlockedRoute, notFoundResponse } from "./base";

export const UnblockCompany = route(BlockedRoute, {
  operationId: "unblockCompany",
  summary: "Remove a company from the blocked-company list (404 when it is not on it)",
  description: "Journaled with before/after images (revertable).",
  request: { params: BlockedCompanyParam },
  responses: {
    "200": json("Removed", BlockedCompanyDeleteResponse),
    ...notFoundResponse("The company is not on the list"),
  },
  handle: async (ctx, { params }) => {
    const { row } = await unblockCompany(ctx, params.company);
    return { company: row.company, status: "unblocked" as const };
  },
});
