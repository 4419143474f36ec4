import { contentJson } from "chanfana";
import { type AppContext, serviceCtx } from "../../../http/context";
import { CsvMappingRequest, StatementDetailResponse, StatementIdParams } from "../schemas";
import { confirmCsvMapping } from "../service";
import { CONFLICT, json, NOT_FOUND, StatementsRoute } from "./base";

export class ConfirmCsvMapping extends StatementsRoute {
  override schema = {
    operationId: "confirmStatementCsvMapping",
    summary: "Confirm a CSV statement's column mapping (remembered for this header layout) and read it again",
    request: { params: StatementIdParams, body: { ...contentJson(CsvMappingRequest), required: true } },
    responses: {
      "200": json("The statement read with the mapping", StatementDetailResponse),
      ...NOT_FOUND,
      ...CONFLICT,
    },
  };

  override async handle(c: AppContext) {
    const { params, body } = await this.getValidatedData<typeof this.schema>();
    return c.json(await confirmCsvMapping(serviceCtx(c), { id: params.statement_id, body }));
  }
}
