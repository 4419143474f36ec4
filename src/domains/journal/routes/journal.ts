import { type AppContext, serviceCtx } from "../../../http/context";
import { domainRoute } from "../../../http/route";
import { DaySummariesResponse, JournalQuery, JournalResponse } from "../schemas";
import { getJournal, listDaySummaries } from "../service";

export class GetJournal extends domainRoute("journal") {
  override schema = {
    operationId: "getJournal",
    summary: "A month as days (newest first) with day totals, running month-to-date and the budget ceiling",
    request: { query: JournalQuery },
    responses: {
      "200": { description: "Journal", content: { "application/json": { schema: JournalResponse } } },
    },
  };
  override async handle(c: AppContext) {
    const { query } = await this.getValidatedData<typeof this.schema>();
    return c.json(await getJournal(serviceCtx(c), query.month));
  }
}

export class ListDaySummaries extends domainRoute("journal") {
  override schema = {
    operationId: "listDaySummaries",
    summary: "The month's saved AI-written day summaries, by day",
    request: { query: JournalQuery },
    responses: {
      "200": {
        description: "Day summaries",
        content: { "application/json": { schema: DaySummariesResponse } },
      },
    },
  };
  override async handle(c: AppContext) {
    const { query } = await this.getValidatedData<typeof this.schema>();
    return c.json(await listDaySummaries(serviceCtx(c), query.month));
  }
}
