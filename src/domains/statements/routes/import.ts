import { contentJson } from "chanfana";
import { json, route } from "../../../http/route";
import { executeImport } from "../import";
import { statementFromBody } from "../import-body";
import { ImportRequest, ImportResponse } from "../schemas";
import { CONFLICT, NOT_FOUND, StatementsRoute } from "./base";

export const ImportStatementRows = route(StatementsRoute, {
  operationId: "importStatementTransactions",
  summary: "Execute a reviewed statement: import new rows, enrich or update matched ones, settle the rest",
  description:
    "One activity-ledger entry per call, written in the import's own batch; reverting it removes the rows it created and restores the ones it changed. " +
    "All or nothing: the rows and the statement's state are written in one batch. Without `statement_id`, " +
    "`metadata` and `transactions` make the statement first.",
  request: { body: { ...contentJson(ImportRequest), required: true } },
  responses: { "200": json("What the import did", ImportResponse), ...NOT_FOUND, ...CONFLICT },
  handle: async (ctx, { body }) => {
    // Without statement_id the request's rows make the statement, inserted in the import's read.
    const made = body.statement_id ? null : await statementFromBody(ctx, body);
    const statement_id = body.statement_id ?? made!.id;
    const res = await executeImport(ctx, { ...body, statement_id, inserts: made?.inserts });
    return res.response;
  },
});
