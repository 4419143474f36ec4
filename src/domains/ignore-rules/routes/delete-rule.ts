import { json, route } from "../../../http/route";
import { IgnoreRuleDeleteResponse, PatternParam } from "../schemas";
import { deleteIgnoreRule } from "../service";
import { IgnoreRulesRoute, notFoundResponse } from "./base";

export const DeleteIgnoreRule = route(IgnoreRulesRoute, {
  operationId: "deleteIgnoreRule",
  summary: "Remove an ignore rule (rows it ignored stay ignored)",
  request: { params: PatternParam },
  responses: {
    "200": json("Removed", IgnoreRuleDeleteResponse),
    ...notFoundResponse("No rule with this pattern"),
  },
  handle: async (ctx, { params }) => deleteIgnoreRule(ctx, params.pattern),
});
