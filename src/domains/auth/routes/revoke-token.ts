import { z } from "zod";
import { type AppContext, serviceCtx } from "../../../http/context";
import { ApiTokenRevokeResponse } from "../schemas";
import { revokeTokenById } from "../tokens";
import { AuthRoute } from "./base";

export class RevokeApiToken extends AuthRoute {
  override schema = {
    operationId: "revokeApiToken",
    summary: "Revoke an API token permanently (its next request gets 401)",
    request: { params: z.object({ token_id: z.string().min(1).max(100) }) },
    responses: {
      "200": { description: "Revoked", content: { "application/json": { schema: ApiTokenRevokeResponse } } },
    },
  };

  override async handle(c: AppContext) {
    const { params } = await this.getValidatedData<typeof this.schema>();
    await revokeTokenById(serviceCtx(c), params.token_id);
    return c.json({ id: params.token_id, status: "revoked" as const });
  }
}
