import { type AppContext, serviceCtx } from "../../../http/context";
import { domainRoute } from "../../../http/route";
import { aiReadiness } from "../readiness";
import { AiReadinessResponse } from "../checks-schemas";

export class GetAiReadiness extends domainRoute("config") {
  override schema = {
    operationId: "getAiReadiness",
    summary: "Per AI action: can it run now, what it needs, and why not (in words), with where to set it up",
    responses: {
      "200": { description: "Readiness", content: { "application/json": { schema: AiReadinessResponse } } },
    },
  };
  override async handle(c: AppContext) {
    return c.json(await aiReadiness(serviceCtx(c)));
  }
}
