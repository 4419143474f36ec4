import { type AppContext, serviceCtx } from "../../../http/context";
import { StatementDetailResponse, StatementIdParams } from "../schemas";
import { reparseStatement } from "../service";
import { json, NOT_FOUND, StatementsRoute } from "./base";

export class ReparseStatement extends StatementsRoute {
  override schema = {
    operationId: "reparseStatement",
    summary: "Parse the stored file again and reconcile anew, keeping the person's edits and results",
    request: { params: StatementIdParams },
    responses: { "200": json("The statement after reparse", StatementDetailResponse), ...NOT_FOUND },
  };

  override async handle(c: AppContext) {
    const { params } = await this.getValidatedData<typeof this.schema>();
    return c.json(await reparseStatement(serviceCtx(c), params.statement_id));
  }
}
