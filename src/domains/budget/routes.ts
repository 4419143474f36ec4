import { domainRoute, errors, ok, route } from "../../http/route";
import { contentJson } from "chanfana";
import {
  BudgetConfigResponse,
  BudgetConfigUpdateRequest,
  YearQuery,
  GroupsResponse,
  GroupsUpdateRequest,
  OptionalYearQuery,
  HistoricalAveragesQuery,
  HistoricalAveragesResponse,
} from "./schemas";
import { getBudgetConfig, putBudgetConfig, getGroups, putGroups } from "./service";
import { getHistoricalAverages } from "./averages";
import { getBudgetStatus } from "./status";
import { BudgetStatusQuery, BudgetStatusResponse } from "./status-schemas";

export const BudgetRoute = domainRoute("budget");

export const CONFLICT = errors({
  "409": "A stale `targets_version`/`groups_version`/`version` (or null while one exists): nothing written",
});

export const GetBudgetConfig = route(BudgetRoute, {
  operationId: "getBudgetConfig",
  summary: "Get budget targets and groups for a year",
  request: { query: YearQuery },
  responses: ok(BudgetConfigResponse),
  handle: async (ctx, { query }) => getBudgetConfig(ctx, query.year),
});

export const PutBudgetConfig = route(BudgetRoute, {
  operationId: "putBudgetConfig",
  summary: "Replace budget targets and groups for a year",
  description:
    "Both items are written together or not at all. `targets_version` and `groups_version` are the " +
    "versions read (null or 0 when none exists); a stale one gives 409 CONFLICT. Each write bumps both.",
  request: { query: YearQuery, body: { ...contentJson(BudgetConfigUpdateRequest), required: true } },
  responses: { ...ok(BudgetConfigResponse), ...CONFLICT },
  handle: async (ctx, { query, body }) =>
    (await putBudgetConfig(ctx, { year: query.year, input: body })).response,
});

export const GetGroups = route(BudgetRoute, {
  operationId: "getGroups",
  summary: "Get budget category groups for a year",
  request: { query: OptionalYearQuery },
  responses: ok(GroupsResponse),
  handle: async (ctx, { query }) => getGroups(ctx, query.year),
});

export const PutGroups = route(BudgetRoute, {
  operationId: "putGroups",
  summary: "Replace budget category groups for a year",
  description: "`version` is the groups version read (null or 0 when none exists); a stale one gives 409.",
  request: { query: OptionalYearQuery, body: { ...contentJson(GroupsUpdateRequest), required: true } },
  responses: { ...ok(GroupsResponse), ...CONFLICT },
  handle: async (ctx, { query, body }) => (await putGroups(ctx, { year: query.year, input: body })).response,
});

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
