import { contentJson } from "chanfana";
import { type AppContext, serviceCtx } from "../../../http/context";
import { BulkTransactionUpdate, BulkTransactionUpdateResponse, StatementIdParams } from "../schemas";
import { applyEdits } from "../service";
import { CONFLICT, json, NOT_FOUND, StatementsRoute } from "./base";

export class BulkUpdateStatementRows extends StatementsRoute {
  override schema = {
    operationId: "bulkUpdateStatementTransactions",
    summary: "Set the action, company and category of many rows at once (all or none)",
    request: { params: StatementIdParams, body: { ...contentJson(BulkTransactionUpdate), required: true } },
    responses: { "200": json("Updated", BulkTransactionUpdateResponse), ...NOT_FOUND, ...CONFLICT },
  };

  override async handle(c: AppContext) {
    const { params, body } = await this.getValidatedData<typeof this.schema>();
    const edits = body.updates.map(({ tx_index, ...edit }) => ({ key: tx_index, edit }));
    const res = await applyEdits(serviceCtx(c), {
      id: params.statement_id,
      edits,
      summary: (rows) => `${rows.length} statement rows edited`,
    });
    return c.json({ ok: true, updated: res.rows.length });
  }
}
