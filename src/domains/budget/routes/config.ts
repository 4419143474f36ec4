import { contentJson } from "chanfana";
import { type AppContext, serviceCtx } from "../../../http/context";
import { BudgetConfigResponse, BudgetConfigUpdateRequest, YearQuery } from "../schemas";
import { getBudgetConfig, putBudgetConfig } from "../service";
import { BudgetRoute, CONFLICT, json } from "./base";

export class GetBudgetConfig extends BudgetRoute {
  override schema = {
    operationId: "getBudgetConfig",
    summary: "Get budget targets and groups for a year",
    request: { query: YearQuery },
    responses: json(BudgetConfigResponse),
  };
  override async handle(c: AppContext) {
    const { query } = await this.getValidatedData<typeof this.schema>();
    return c.json(await getBudgetConfig(serviceCtx(c), query.year));
  }
}

export class PutBudgetConfig extends BudgetRoute {
  override schema = {
    operationId: "putBudgetConfig",
    summary: "Replace budget targets and groups for a year",
    description:
      "Both items are written together or not at all. `targets_version` and `groups_version` are the " +
      "versions read (null or 0 when none exists); a stale one gives 409 CONFLICT. Each write bumps both.",
    request: { query: YearQuery, body: { ...contentJson(BudgetConfigUpdateRequest), required: true } },
    responses: { ...json(BudgetConfigResponse), ...CONFLICT },
  };
  override async handle(c: AppContext) {
    const { query, body } = await this.getValidatedData<typeof this.schema>();
    const res = await putBudgetConfig(serviceCtx(c), { year: query.year, input: body });
    return c.json(res.response);
  }
}
