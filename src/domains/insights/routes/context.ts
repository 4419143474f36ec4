import { serviceCtx } from "../../../http/context";
import { domainRoute, route } from "../../../http/route";
import { buildContext } from "../context";
import { InsightsContextResponse, OptionalMonthQuery } from "../schemas";

export const GetInsightsContext = route(domainRoute("insights"), {
  operationId: "getInsightsContext",
  summary: "The context snapshot a briefing is written from (and checked against)",
  request: { query: OptionalMonthQuery },
  responses: {
    "200": { description: "Context", content: { "application/json": { schema: InsightsContextResponse } } },
  },
  handle: async (c, { query }) => buildContext(serviceCtx(c), query.month),
});
