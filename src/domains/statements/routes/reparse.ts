import { json, route } from "../../../http/route";
import { StatementDetailResponse, StatementIdParams } from "../schemas";
import { reparseStatement } from "../service";
import { NOT_FOUND, StatementsRoute } from "./base";

export const ReparseStatement = route(StatementsRoute, {
  operationId: "reparseStatement",
  summary: "Parse the stored file again and reconcile anew, keeping the person's edits and results",
  request: { params: StatementIdParams },
  responses: { "200": json("The statement after reparse", StatementDetailResponse), ...NOT_FOUND },
  handle: async (ctx, { params }) => reparseStatement(ctx, params.statement_id),
});
