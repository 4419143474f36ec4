import { domainRoute, json, route, errors } from "../../http/route";
import { buildContext } from "./context";
import {
  InsightsContextResponse,
  OptionalMonthQuery,
  InsightsGenerateResponse,
  InsightsStatusResponse,
  MonthQuery,
  InsightIdParam,
  SavedInsightDetail,
  SavedInsightListResponse,
} from "./schemas";
import { insightsStatus, startInsights, getSaved, listSaved } from "./service";

export const GetInsightsContext = route(domainRoute("insights"), {
  operationId: "getInsightsContext",
  summary: "The context snapshot a briefing is written from (and checked against)",
  request: { query: OptionalMonthQuery },
  responses: {
    "200": json("Context", InsightsContextResponse),
  },
  handle: async (ctx, { query }) => buildContext(ctx, query.month),
});

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

export const ListSavedInsights = route(InsightsRoute, {
  operationId: "listSavedInsights",
  summary: "The month's saved briefings, newest first, with their figure-check verdict",
  request: { query: MonthQuery },
  responses: {
    "200": json("Saved briefings", SavedInsightListResponse),
  },
  handle: async (ctx, { query }) => listSaved(ctx, query.month),
});

export const GetSavedInsight = route(InsightsRoute, {
  operationId: "getSavedInsight",
  summary: "One saved briefing (markdown) with its figure check",
  request: { params: InsightIdParam, query: MonthQuery },
  responses: {
    "200": json("Briefing", SavedInsightDetail),
    ...errors({ "404": "No such briefing in that month" }),
  },
  handle: async (ctx, { params, query }) => getSaved(ctx, { id: params.insight_id, month: query.month }),
});
