import { json, route } from "../../../http/route";
import { StatementDeleteResponse, StatementIdParams } from "../schemas";
import { deleteStatement } from "../service";
import { NOT_FOUND, StatementsRoute } from "./base";

export const DeleteStatement = route(StatementsRoute, {
  operationId: "deleteStatement",
  summary: "Remove a statement and its review rows (imported transactions stay)",
  request: { params: StatementIdParams },
  responses: { "200": json("Deleted", StatementDeleteResponse), ...NOT_FOUND },
  handle: async (ctx, { params }) => {
    const res = await deleteStatement(ctx, params.statement_id);
    return { ok: res.ok };
  },
});
