import { type AppContext, serviceCtx } from "../../../http/context";
import { domainRoute } from "../../../http/route";
import { WhoamiResponse } from "../../auth/schemas";
import { whoami } from "../service";

export class GetWhoami extends domainRoute("whoami") {
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
