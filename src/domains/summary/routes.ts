import { domainRoute, json, route } from "../../http/route";
import { SummaryQuery, SummaryResponse, TrendQuery, TrendResponse } from "./schemas";
import { getSummary, getTrend } from "./service";

const SummaryRoute = domainRoute("summary");

export const GetMonthlySummary = route(SummaryRoute, {
  operationId: "getMonthlySummary",
  summary: "A month's totals, breakdowns, month-over-month deltas, anomalies and (current month) pace",
  request: { query: SummaryQuery },
  responses: {
    "200": json("Monthly summary", SummaryResponse),
  },
  handle: async (ctx, { query }) => getSummary(ctx, query.month),
});

export const GetSpendingTrend = route(SummaryRoute, {
  operationId: "getSpendingTrend",
  summary: "Spending per month (2-12 months ending at end_month, default the current month)",
  request: { query: TrendQuery },
  responses: {
    "200": json("Trend", TrendResponse),
  },
  handle: async (ctx, { query }) => getTrend(ctx, { months: query.months, endMonth: query.end_month }),
});
