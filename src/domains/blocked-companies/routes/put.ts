import { json, route } from "../../../http/route";
import { BlockedCompany, BlockedCompanyParam } from "../schemas";
import { blockCompany } from "../service";
import { BlockedRoute } from "./base";

export const BlockCompany = route(BlockedRoute, {
  operationId: "blockCompany",
  summary: "Add a company to the blocked-company list (idempotent; no body)",
  description:
    "New transactions from this company (matched without regard to case) still come in, but send " +
    "no notification. Journaled with before/after images (revertable).",
  request: { params: BlockedCompanyParam },
  responses: { "200": json("The entry (the existing one when it was already blocked)", BlockedCompany) },
  handle: async (ctx, { params }) => {
    const { row } = await blockCompany(ctx, params.company);
    return { company: row.company, created_at: row.created_at };
  },
});
