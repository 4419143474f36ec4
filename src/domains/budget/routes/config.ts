import { contentJson } from "chanfana";
import { ok, route } from "../../../http/route";
import { BudgetConfigResponse, BudgetConfigUpdateRequest, YearQuery } from "../schemas";
import { getBudgetConfig, putBudgetConfig } from "../service";
import { BudgetRoute, CONFLICT } from "./base";

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
