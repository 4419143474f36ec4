import { contentJson } from "chanfana";
import { type AppContext, serviceCtx } from "../../../http/context";
import { IgnoreRuleApplyRequest, IgnoreRuleApplyResponse } from "../schemas";
import { applyIgnoreRules } from "../service";
import { IgnoreRulesRoute, json, notFoundResponse } from "./base";

export class ApplyIgnoreRules extends IgnoreRulesRoute {
  override schema = {
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
  };

  override async handle(c: AppContext) {
    const { body } = await this.getValidatedData<typeof this.schema>();
    return c.json(await applyIgnoreRules(serviceCtx(c), body.pattern));
  }
}
