import { domainRoute, json, route } from "../../../http/route";
import { buildContext } from "../context";
import { InsightsContextResponse, OptionalMonthQuery } from "../schemas";

export const GetInsightsContext = route(domainRoute("insights"), {
  operationId: "getInsightsContext",
  summary: "The context snapshot a briefing is written from (and checked against)",
  request: { query: OptionalMonthQuery },
  responses: {
    "200": json("Context", InsightsContextResponse),
  },
  handle: async (ctx, { query }) => buildContext(ctx, query.month),
});
