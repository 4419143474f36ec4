import { contentJson } from "chanfana";
import { json, route } from "../../../http/route";
import { ErrorEnvelope } from "../../../http/errors";
import { IgnoreRuleAddRequest, IgnoreRuleListResponse } from "../schemas";
import { addIgnoreRule } from "../service";
import { IgnoreRulesRoute } from "./base";

export const AddIgnoreRule = route(IgnoreRulesRoute, {
  operationId: "addIgnoreRule",
  summary: "Pin a merchant to Ignored",
  description:
    "New transactions whose company matches (exactly, after normalization, or through an alias) are " +
    "stored Ignored; existing rows change only through `POST /api/v1/ignore-rules/apply`.",
  request: { body: { ...contentJson(IgnoreRuleAddRequest), required: true } },
  responses: {
    "200": json("The rules after the add", IgnoreRuleListResponse),
    "409": json("A rule with this pattern (any case) exists", ErrorEnvelope),
  },
  handle: async (ctx, { body }) => addIgnoreRule(ctx, body.pattern),
});
