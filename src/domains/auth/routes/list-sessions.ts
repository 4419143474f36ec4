import { json, route } from "../../../http/route";
import { WebappSessionListResponse } from "../schemas";
import { listSessions } from "../sessions";
import { AuthRoute } from "./base";

export const ListWebappSessions = route(AuthRoute, {
  operationId: "listWebappSessions",
  summary: "List active browser sessions (the caller's own marked current)",
  responses: {
    "200": json("Active sessions, oldest first", WebappSessionListResponse),
  },
  handle: async (ctx) => ({ sessions: await listSessions(ctx) }),
});
