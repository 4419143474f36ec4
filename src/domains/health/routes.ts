import { isLocalRequest } from "../../http/auth";
import { domainRoute, json, route } from "../../http/route";
import { HealthResponse } from "./schemas";
import { getHealth } from "./service";

export const GetHealth = route(domainRoute("health"), {
  operationId: "getHealth",
  summary: "Liveness probe with last-activity snapshot (public)",
  security: [],
  responses: {
    "200": json("Health snapshot", HealthResponse),
  },
  handle: async (ctx, _, c) => {
    const remote = !isLocalRequest(c.env, c.req.raw);
    return await getHealth(ctx, remote);
  },
});
