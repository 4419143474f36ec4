import { contentJson } from "chanfana";
import { json, route } from "../../../http/route";
import { IgnoreRuleApplyRequest, IgnoreRuleApplyResponse } from "../schemas";
import { applyIgnoreRules } from "../service";
import { IgnoreRulesRoute, notFoundResponse } from "./base";

export const ApplyIgnoreRules = route(IgnoreRulesRoute, {
  operationId: "applyIgnoreRules",
  summary: "Backfill: set Ignored on existing transactions matching one rule or all rules",
  description:
    "Only non-deleted rows that are not ignored yet change, so a rerun is a no-op. `matched` counts every " +
    "non-deleted row a rule fires on; `updated` counts the rows this call flipped.",
  request: { body: { ...contentJson(IgnoreRuleApplyRequest), required: true } },
  responses: {
    "200": json("Per-rule counts", IgnoreRuleApplyResponse),
    ...notFoundResponse("No rule with this pattern"),
  },
  handle: async (ctx, { body }) => applyIgnoreRules(ctx, body.pattern),
});
