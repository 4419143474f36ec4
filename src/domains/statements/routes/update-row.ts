import { contentJson } from "chanfana";
import { json, route } from "../../../http/route";
import { RowParams, TransactionActionUpdate, TransactionActionUpdateResponse } from "../schemas";
import { applyEdits } from "../service";
import { CONFLICT, NOT_FOUND, StatementsRoute } from "./base";

export const UpdateStatementRow = route(StatementsRoute, {
  operationId: "updateStatementTransactionAction",
  summary: "Set one row's action, company and category (the statement moves to in_progress)",
  request: { params: RowParams, body: { ...contentJson(TransactionActionUpdate), required: true } },
  responses: { "200": json("Updated", TransactionActionUpdateResponse), ...NOT_FOUND, ...CONFLICT },
  handle: async (ctx, { params, body }) => {
    const edits = [{ key: params.tx_index, edit: body }];
    const res = await applyEdits(ctx, {
      id: params.statement_id,
      edits,
      summary: ([r]) => `statement row ${r!.tx_index}: ${r!.action}`,
    });
    const row = res.rows[0];
    return { ok: true, tx_index: row!.tx_index, row_id: row!.row_id, action: row!.action };
  },
});
