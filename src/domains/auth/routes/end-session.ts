import { z } from "zod";
import { type AppContext, serviceCtx } from "../../../http/context";
import { WebappSessionEndResponse } from "../schemas";
import { signOutSession } from "../sessions";
import { AuthRoute } from "./base";

export class EndWebappSession extends AuthRoute {
  override schema = {
    operationId: "endWebappSession",
    summary: "Sign one browser session out (its cookie gets 401 from then on)",
    request: { params: z.object({ session_id: z.string().min(1).max(100) }) },
    responses: {
      "200": {
        description: "Signed out",
        content: { "application/json": { schema: WebappSessionEndResponse } },
      },
    },
  };

  override async handle(c: AppContext) {
    const { params } = await this.getValidatedData<typeof this.schema>();
    await signOutSession(serviceCtx(c), params.session_id);
    return c.json({ id: params.session_id, status: "signed_out" as const });
  }
}
