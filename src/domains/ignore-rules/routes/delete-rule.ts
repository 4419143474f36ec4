import { type AppContext, serviceCtx } from "../../../http/context";
import { IgnoreRuleDeleteResponse, PatternParam } from "../schemas";
import { deleteIgnoreRule } from "../service";
import { IgnoreRulesRoute, json, notFoundResponse } from "./base";

export class DeleteIgnoreRule extends IgnoreRulesRoute {
  override schema = {
    operationId: "deleteIgnoreRule",
    summary: "Remove an ignore rule (rows it ignored stay ignored)",
    request: { params: PatternParam },
    responses: {
      "200": json("Removed", IgnoreRuleDeleteResponse),
      ...notFoundResponse("No rule with this pattern"),
    },
  };

  override async handle(c: AppContext) {
    const { params } = await this.getValidatedData<typeof this.schema>();
    return c.json(await deleteIgnoreRule(serviceCtx(c), params.pattern));
  }
}
