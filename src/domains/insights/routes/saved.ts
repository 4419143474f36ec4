import { domainRoute, errors, json, route } from "../../../http/route";
import { InsightIdParam, MonthQuery, SavedInsightDetail, SavedInsightListResponse } from "../schemas";
import { getSaved, listSaved } from "../service";

const InsightsRoute = domainRoute("insights");

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
