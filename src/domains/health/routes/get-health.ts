import { isLocalRequest } from "../../../http/auth";
import { serviceCtx } from "../../../http/context";
import { domainRoute, json, route } from "../../../http/route";
import { HealthResponse } from "../schemas";
import { getHealth } from "../service";

export const GetHealth = route(domainRoute("health"), {
  operationId: "getHealth",
  summary: "Liveness probe with last-activity snapshot (public)",
  security: [],
  responses: {
    "200": json("Health snapshot", HealthResponse),
  },
  handle: async (c) => {
    const remote = !isLocalRequest(c.env, c.req.raw);
    return await getHealth(serviceCtx(c), remote);
  },
});
