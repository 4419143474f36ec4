import { contentJson } from "chanfana";
import { json, route } from "../../../http/route";
import { BulkTransactionUpdate, BulkTransactionUpdateResponse, StatementIdParams } from "../schemas";
import { applyEdits } from "../service";
import { CONFLICT, NOT_FOUND, StatementsRoute } from "./base";

export const BulkUpdateStatementRows = route(StatementsRoute, {
  operationId: "bulkUpdateStatementTransactions",
  summary: "Set the action, company and category of many rows at once (all or none)",
  request: { params: StatementIdParams, body: { ...contentJson(BulkTransactionUpdate), required: true } },
  responses: { "200": json("Updated", BulkTransactionUpdateResponse), ...NOT_FOUND, ...CONFLICT },
  handle: async (ctx, { params, body }) => {
    const edits = body.updates.map(({ tx_index, ...edit }) => ({ key: tx_index, edit }));
    const res = await applyEdits(ctx, {
      id: params.statement_id,
      edits,
      summary: (rows) => `${rows.length} statement rows edited`,
    });
    return { ok: true, updated: res.rows.length };
  },
});
