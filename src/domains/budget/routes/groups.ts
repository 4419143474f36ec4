import { contentJson } from "chanfana";
import { ok, route } from "../../../http/route";
import { GroupsResponse, GroupsUpdateRequest, OptionalYearQuery } from "../schemas";
import { getGroups, putGroups } from "../service";
import { BudgetRoute, CONFLICT } from "./base";

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
