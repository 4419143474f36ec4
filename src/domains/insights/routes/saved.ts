import { type AppContext, serviceCtx } from "../../../http/context";
import { domainRoute } from "../../../http/route";
import { errors } from "./base";
import { InsightIdParam, MonthQuery, SavedInsightDetail, SavedInsightListResponse } from "../schemas";
import { getSaved, listSaved } from "../service";

const InsightsRoute = domainRoute("insights");

export class ListSavedInsights extends InsightsRoute {
  override schema = {
    operationId: "listSavedInsights",
    summary: "The month's saved briefings, newest first, with their figure-check verdict",
    request: { query: MonthQuery },
    responses: {
      "200": {
        description: "Saved briefings",
        content: { "application/json": { schema: SavedInsightListResponse } },
      },
    },
  };
  override async handle(c: AppContext) {
    const { query } = await this.getValidatedData<typeof this.schema>();
    return c.json(await listSaved(serviceCtx(c), query.month));
  }
}

export class GetSavedInsight extends InsightsRoute {
  override schema = {
    operationId: "getSavedInsight",
    summary: "One saved briefing (markdown) with its figure check",
    request: { params: InsightIdParam, query: MonthQuery },
    responses: {
      "200": { description: "Briefing", content: { "application/json": { schema: SavedInsightDetail } } },
      ...errors({ "404": "No such briefing in that month" }),
    },
  };
  override async handle(c: AppContext) {
    const { params, query } = await this.getValidatedData<typeof this.schema>();
    return c.json(await getSaved(serviceCtx(c), { id: params.insight_id, month: query.month }));
  }
}
