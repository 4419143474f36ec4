import { type AppContext, serviceCtx } from "../../../http/context";
import { StatementDeleteResponse, StatementIdParams } from "../schemas";
import { deleteStatement } from "../service";
import { json, NOT_FOUND, StatementsRoute } from "./base";

export class DeleteStatement extends StatementsRoute {
  override schema = {
    operationId: "deleteStatement",
    summary: "Remove a statement and its review rows (imported transactions stay)",
    request: { params: StatementIdParams },
    responses: { "200": json("Deleted", StatementDeleteResponse), ...NOT_FOUND },
  };

  override async handle(c: AppContext) {
    const { params } = await this.getValidatedData<typeof this.schema>();
    const res = await deleteStatement(serviceCtx(c), params.statement_id);
    return c.json({ ok: res.ok });
  }
}
