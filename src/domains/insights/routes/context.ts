import { type AppContext, serviceCtx } from "../../../http/context";
import { domainRoute } from "../../../http/route";
import { buildContext } from "../context";
import { InsightsContextResponse, OptionalMonthQuery } from "../schemas";

export class GetInsightsContext extends domainRoute("insights") {
  override schema = {
    operationId: "getInsightsContext",
    summary: "The context snapshot a briefing is written from (and checked against)",
    request: { query: OptionalMonthQuery },
    responses: {
      "200": { description: "Context", content: { "application/json": { schema: InsightsContextResponse } } },
    },
  };
  override async handle(c: AppContext) {
    const { query } = await this.getValidatedData<typeof this.schema>();
    return c.json(await buildContext(serviceCtx(c), query.month));
  }
}
