import { type AppContext, serviceCtx } from "../../../http/context";
import { IgnoreRuleListResponse } from "../schemas";
import { listIgnoreRules } from "../service";
import { IgnoreRulesRoute, json } from "./base";

export class ListIgnoreRules extends IgnoreRulesRoute {
  override schema = {
    operationId: "listIgnoreRules",
    summary: "Merchants pinned to Ignored, with the list version",
    responses: { "200": json("The rules, by pattern", IgnoreRuleListResponse) },
  };

  override async handle(c: AppContext) {
    return c.json(await listIgnoreRules(serviceCtx(c)));
  }
}
