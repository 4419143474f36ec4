import { type AppContext, serviceCtx } from "../../../http/context";
import { domainRoute } from "../../../http/route";
import { SummaryQuery, SummaryResponse, TrendQuery, TrendResponse } from "../schemas";
import { getSummary, getTrend } from "../service";

const SummaryRoute = domainRoute("summary");

export class GetMonthlySummary extends SummaryRoute {
  override schema = {
    operationId: "getMonthlySummary",
    summary: "A month's totals, breakdowns, month-over-month deltas, anomalies and (current month) pace",
    request: { query: SummaryQuery },
    responses: {
      "200": { description: "Monthly summary", content: { "application/json": { schema: SummaryResponse } } },
    },
  };
  override async handle(c: AppContext) {
    const { query } = await this.getValidatedData<typeof this.schema>();
    return c.json(await getSummary(serviceCtx(c), query.month));
  }
}

export class GetSpendingTrend extends SummaryRoute {
  override schema = {
    operationId: "getSpendingTrend",
    summary: "Spending per month (2-12 months ending at end_month, default the current month)",
    request: { query: TrendQuery },
    responses: {
      "200": { description: "Trend", content: { "application/json": { schema: TrendResponse } } },
    },
  };
  override async handle(c: AppContext) {
    const { query } = await this.getValidatedData<typeof this.schema>();
    return c.json(await getTrend(serviceCtx(c), { months: query.months, endMonth: query.end_month }));
  }
}
