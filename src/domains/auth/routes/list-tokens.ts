import { serviceCtx } from "../../../http/context";
import { route } from "../../../http/route";
import { ApiTokenListResponse } from "../schemas";
import { listTokens } from "../tokens";
import { AuthRoute } from "./base";

export const ListApiTokens = route(AuthRoute, {
  operationId: "listApiTokens",
  summary: "List live API tokens (id, label, scope, created and last-used time; never a token)",
  responses: {
    "200": {
      description: "Live tokens",
      content: { "application/json": { schema: ApiTokenListResponse } },
    },
  },
  handle: async (c) => ({ tokens: await listTokens(serviceCtx(c)) }),
});
