import { type AppContext, serviceCtx } from "../../../http/context";
import { StatementListResponse } from "../schemas";
import { listStatements } from "../service";
import { json, StatementsRoute } from "./base";

export class ListStatements extends StatementsRoute {
  override schema = {
    operationId: "listStatements",
    summary: "Uploaded statements, newest first, with status and counts",
    responses: { "200": json("Statements", StatementListResponse) },
  };

  override async handle(c: AppContext) {
    return c.json(await listStatements(serviceCtx(c)));
  }
}
