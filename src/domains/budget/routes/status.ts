import { ok, route } from "../../../http/route";
import { getHistoricalAverages } from "../averages";
import { HistoricalAveragesQuery, HistoricalAveragesResponse } from "../schemas";
import { getBudgetStatus } from "../status";
import { BudgetStatusQuery, BudgetStatusResponse } from "../status-schemas";
import { BudgetRoute } from "./base";

export const GetBudgetStatus = route(BudgetRoute, {
  operationId: "getBudgetStatus",
  summary: "YTD budget pace status with per-category and per-group breakdown",
  description:
    "Pace = year-to-date spend vs target x elapsed fraction of the year (as of today in the configured " +
    "time zone). For the current year each category also carries the current month and a forecast.",
  request: { query: BudgetStatusQuery },
  responses: ok(BudgetStatusResponse),
  handle: async (ctx, { query }) =>
    getBudgetStatus(ctx, { year: query.year, compareYear: query.compare_year }),
});

export const GetBudgetHistoricalAverages = route(BudgetRoute, {
  operationId: "getBudgetHistoricalAverages",
  summary: "Per-category historical monthly averages over the last N months",
  description: "The N complete months before the current month; cached for one hour.",
  request: { query: HistoricalAveragesQuery },
  responses: ok(HistoricalAveragesResponse),
  handle: async (ctx, { query }) => getHistoricalAverages(ctx, query.months),
});
