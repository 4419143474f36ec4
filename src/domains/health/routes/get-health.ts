import { isLocalRequest } from "../../../http/auth";
import { type AppContext, serviceCtx } from "../../../http/context";
import { domainRoute } from "../../../http/route";
import { HealthResponse } from "../schemas";
import { getHealth } from "../service";

export class GetHealth extends domainRoute("health") {
  override schema = {
    operationId: "getHealth",
    summary: "Liveness probe with last-activity snapshot (public)",
    security: [],
    responses: {
      "200": { description: "Health snapshot", content: { "application/json": { schema: HealthResponse } } },
    },
  };

  override async handle(c: AppContext) {
    const remote = !isLocalRequest(c.env, c.req.raw);
    return c.json(await getHealth(serviceCtx(c), remote));
  }
}
