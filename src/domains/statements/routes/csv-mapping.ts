import { contentJson } from "chanfana";
import { json, route } from "../../../http/route";
import { CsvMappingRequest, StatementDetailResponse, StatementIdParams } from "../schemas";
import { confirmCsvMapping } from "../service";
import { CONFLICT, NOT_FOUND, StatementsRoute } from "./base";

export const ConfirmCsvMapping = route(StatementsRoute, {
  operationId: "confirmStatementCsvMapping",
  summary: "Confirm a CSV statement's column mapping (remembered for this header layout) and read it again",
  request: { params: StatementIdParams, body: { ...contentJson(CsvMappingRequest), required: true } },
  responses: {
    "200": json("The statement read with the mapping", StatementDetailResponse),
    ...NOT_FOUND,
    ...CONFLICT,
  },
  handle: async (ctx, { params, body }) => confirmCsvMapping(ctx, { id: params.statement_id, body }),
});
