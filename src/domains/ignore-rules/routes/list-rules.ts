import { json, route } from "../../../http/route";
import { IgnoreRuleListResponse } from "../schemas";
import { listIgnoreRules } from "../service";
import { IgnoreRulesRoute } from "./base";

export const ListIgnoreRules = route(IgnoreRulesRoute, {
  operationId: "listIgnoreRules",
  summary: "Merchants pinned to Ignored, with the list version",
  responses: { "200": json("The rules, by pattern", IgnoreRuleListResponse) },
  handle: async (ctx) => listIgnoreRules(ctx),
});
