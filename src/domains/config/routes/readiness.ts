import { domainRoute, json, route } from "../../../http/route";
import { aiReadiness } from "../readiness";
import { AiReadinessResponse } from "../checks-schemas";

export const GetAiReadiness = route(domainRoute("config"), {
  operationId: "getAiReadiness",
  summary: "Per AI action: can it run now, what it needs, and why not (in words), with where to set it up",
  responses: {
    "200": json("Readiness", AiReadinessResponse),
  },
  handle: async (ctx) => aiReadiness(ctx),
});
