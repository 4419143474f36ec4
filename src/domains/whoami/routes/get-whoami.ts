import { type AppContext, serviceCtx } from "../../../http/context";
import { domainRoute } from "../../../http/route";
import { WhoamiResponse } from "../schemas";
import { whoami } from "../whoami";

export class GetWhoami extends domainRoute("activity") {
  override schema = {
    operationId: "getWhoami",
    summary: "Resolve the current caller's identity (token, session, TOFU, or dev-bypass)",
    responses: {
      "200": { description: "The caller", content: { "application/json": { schema: WhoamiResponse } } },
    },
  };

  override async handle(c: AppContext) {
    return c.json(await whoami(serviceCtx(c)));
  }
}
