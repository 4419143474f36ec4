import { domainRoute, errors, json, route } from "../../../http/route";
import { InsightsGenerateResponse, InsightsStatusResponse, MonthQuery } from "../schemas";
import { insightsStatus, startInsights } from "../service";

const InsightsRoute = domainRoute("insights");

export const GenerateInsights = route(InsightsRoute, {
  operationId: "generateInsights",
  summary: "Start writing the month's briefing in the background (one at a time; 409 while one runs)",
  request: { query: MonthQuery },
  responses: {
    "202": json("Started", InsightsGenerateResponse),
    ...errors({
      "409": "A briefing is already being written",
      "422": "Insights are turned off (in words)",
    }),
  },
  handle: async (ctx, { query }, c) => c.json(await startInsights(ctx, query.month), 202),
});

export const GetInsightsStatus = route(InsightsRoute, {
  operationId: "getInsightsGenerationStatus",
  summary: "The insights task: idle, running (with its phase) or error (with the reason)",
  responses: {
    "200": json("Status", InsightsStatusResponse),
  },
  handle: async (ctx) => insightsStatus(ctx),
});
