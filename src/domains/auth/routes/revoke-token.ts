import { z } from "zod";
import { json, route } from "../../../http/route";
import { ApiTokenRevokeResponse } from "../schemas";
import { revokeTokenById } from "../tokens";
import { AuthRoute } from "./base";

export const RevokeApiToken = route(AuthRoute, {
  operationId: "revokeApiToken",
  summary: "Revoke an API token permanently (its next request gets 401)",
  request: { params: z.object({ token_id: z.string().min(1).max(100) }) },
  responses: {
    "200": json("Revoked", ApiTokenRevokeResponse),
  },
  handle: async (ctx, { params }) => {
    await revokeTokenById(ctx, params.token_id);
    return { id: params.token_id, status: "revoked" as const };
  },
});
