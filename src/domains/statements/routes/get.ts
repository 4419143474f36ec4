import { type AppContext, serviceCtx } from "../../../http/context";
import { StatementDetailResponse, StatementIdParams } from "../schemas";
import { getStatementDetail } from "../service";
import { json, NOT_FOUND, StatementsRoute } from "./base";

export class GetStatement extends StatementsRoute {
  override schema = {
    operationId: "getStatement",
    summary: "One statement with every row, its tier, action and edits",
    request: { params: StatementIdParams },
    responses: { "200": json("The statement", StatementDetailResponse), ...NOT_FOUND },
  };

  override async handle(c: AppContext) {
    const { params } = await this.getValidatedData<typeof this.schema>();
    return c.json(await getStatementDetail(serviceCtx(c), params.statement_id));
  }
}
