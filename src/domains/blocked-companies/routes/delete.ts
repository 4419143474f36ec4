import { type AppContext, serviceCtx } from "../../../http/context";
import { BlockedCompanyDeleteResponse, BlockedCompanyParam } from "../schemas";
import { unblockCompany } from "../service";
import { BlockedRoute, json, notFoundResponse } from "./base";

export class UnblockCompany extends BlockedRoute {
  override schema = {
    operationId: "unblockCompany",
    summary: "Remove a company from the blocked-company list (404 when it is not on it)",
    description: "Journaled with before/after images (revertable).",
    request: { params: BlockedCompanyParam },
    responses: {
      "200": json("Removed", BlockedCompanyDeleteResponse),
      ...notFoundResponse("The company is not on the list"),
    },
  };

  override async handle(c: AppContext) {
    const { params } = await this.getValidatedData<typeof this.schema>();
    const { row } = await unblockCompany(serviceCtx(c), params.company);
    return c.json({ company: row.company, status: "unblocked" as const });
  }
}
