import { type AppContext, serviceCtx } from "../../../http/context";
import { WebappSessionListResponse } from "../schemas";
import { listSessions } from "../sessions";
import { AuthRoute } from "./base";

export class ListWebappSessions extends AuthRoute {
  override schema = {
    operationId: "listWebappSessions",
    summary: "List active browser sessions (the caller's own marked current)",
    responses: {
      "200": {
        description: "Active sessions, oldest first",
        content: { "application/json": { schema: WebappSessionListResponse } },
      },
    },
  };

  override async handle(c: AppContext) {
    return c.json({ sessions: await listSessions(serviceCtx(c)) });
  }
}
