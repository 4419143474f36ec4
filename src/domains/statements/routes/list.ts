import { json, route } from "../../../http/route";
import { StatementListResponse } from "../schemas";
import { listStatements } from "../service";
import { StatementsRoute } from "./base";

export const ListStatements = route(StatementsRoute, {
  operationId: "listStatements",
  summary: "Uploaded statements, newest first, with status and counts",
  responses: { "200": json("Statements", StatementListResponse) },
  handle: async (ctx) => listStatements(ctx),
});
