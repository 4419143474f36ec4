import { contentJson } from "chanfana";
import { type AppContext, serviceCtx } from "../../../http/context";
import { RowParams, TransactionActionUpdate, TransactionActionUpdateResponse } from "../schemas";
import { applyEdits } from "../service";
import { CONFLICT, json, NOT_FOUND, StatementsRoute } from "./base";

export class UpdateStatementRow extends StatementsRoute {
  override schema = {
    operationId: "updateStatementTransactionAction",
    summary: "Set one row's action, company and category (the statement moves to in_progress)",
    request: { params: RowParams, body: { ...contentJson(TransactionActionUpdate), required: true } },
    responses: { "200": json("Updated", TransactionActionUpdateResponse), ...NOT_FOUND, ...CONFLICT },
  };

  override async handle(c: AppContext) {
    const { params, body } = await this.getValidatedData<typeof this.schema>();
    const edits = [{ key: params.tx_index, edit: body }];
    const res = await applyEdits(serviceCtx(c), {
      id: params.statement_id,
      edits,
      summary: ([r]) => `statement row ${r!.tx_index}: ${r!.action}`,
    });
    const row = res.rows[0];
    return c.json({ ok: true, tx_index: row!.tx_index, row_id: row!.row_id, action: row!.action });
  }
}
