import { type AppContext, serviceCtx } from "../../../http/context";
import { ApiTokenListResponse } from "../schemas";
import { listTokens } from "../tokens";
import { AuthRoute } from "./base";

export class ListApiTokens extends AuthRoute {
  override schema = {
    operationId: "listApiTokens",
    summary: "List live API tokens (id, label, scope, created and last-used time; never a token)",
    responses: {
      "200": {
        description: "Live tokens",
        content: { "application/json": { schema: ApiTokenListResponse } },
      },
    },
  };

  override async handle(c: AppContext) {
    return c.json({ tokens: await listTokens(serviceCtx(c)) });
  }
}
