import { json, route } from "../../../http/route";
import { ApiTokenListResponse } from "../schemas";
import { listTokens } from "../tokens";
import { AuthRoute } from "./base";

export const ListApiTokens = route(AuthRoute, {
  operationId: "listApiTokens",
  summary: "List live API tokens (id, label, scope, created and last-used time; never a token)",
  responses: {
    "200": json("Live tokens", ApiTokenListResponse),
  },
  handle: async (ctx) => ({ tokens: await listTokens(ctx) }),
});
