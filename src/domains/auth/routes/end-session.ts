import { z } from "zod";
import { json, route } from "../../../http/route";
import { WebappSessionEndResponse } from "../schemas";
import { signOutSession } from "../sessions";
import { AuthRoute } from "./base";

export const EndWebappSession = route(AuthRoute, {
  operationId: "endWebappSession",
  summary: "Sign one browser session out (its cookie gets 401 from then on)",
  request: { params: z.object({ session_id: z.string().min(1).max(100) }) },
  responses: {
    "200": json("Signed out", WebappSessionEndResponse),
  },
  handle: async (ctx, { params }) => {
    await signOutSession(ctx, params.session_id);
    return { id: params.session_id, status: "signed_out" as const };
  },
});
