import { type AppContext, serviceCtx } from "../../../http/context";
import { domainRoute } from "../../../http/route";
import { errors } from "./base";
import { InsightsGenerateResponse, InsightsStatusResponse, MonthQuery } from "../schemas";
import { insightsStatus, startInsights } from "../service";

const InsightsRoute = domainRoute("insights");

export class GenerateInsights extends InsightsRoute {
  override schema = {
    operationId: "generateInsights",
    summary: "Start writing the month's briefing in the background (one at a time; 409 while one runs)",
    request: { query: MonthQuery },
    responses: {
      "202": {
        description: "Started",
        content: { "application/json": { schema: InsightsGenerateResponse } },
      },
      ...errors({
        "409": "A briefing is already being written",
        "422": "Insights are turned off (in words)",
      }),
    },
  };
  override async handle(c: AppContext) {
    const { query } = await this.getValidatedData<typeof this.schema>();
    return c.json(await startInsights(serviceCtx(c), query.month), 202);
  }
}

export class GetInsightsStatus extends InsightsRoute {
  override schema = {
    operationId: "getInsightsGenerationStatus",
    summary: "The insights task: idle, running (with its phase) or error (with the reason)",
    responses: {
      "200": { description: "Status", content: { "application/json": { schema: InsightsStatusResponse } } },
    },
  };
  override async handle(c: AppContext) {
    return c.json(await insightsStatus(serviceCtx(c)));
  }
}
