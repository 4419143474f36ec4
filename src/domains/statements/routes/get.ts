import { json, route } from "../../../http/route";
import { StatementDetailResponse, StatementIdParams } from "../schemas";
import { getStatementDetail } from "../service";
import { NOT_FOUND, StatementsRoute } from "./base";

export const GetStatement = route(StatementsRoute, {
  operationId: "getStatement",
  summary: "One statement with every row, its tier, action and edits",
  request: { params: StatementIdParams },
  responses: { "200": json("The statement", StatementDetailResponse), ...NOT_FOUND },
  handle: async (ctx, { params }) => getStatementDetail(ctx, params.statement_id),
});
