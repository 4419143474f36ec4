import { domainRoute, json, route } from "../../../http/route";
import { DaySummariesResponse, JournalQuery, JournalResponse } from "../schemas";
import { getJournal, listDaySummaries } from "../service";

export const GetJournal = route(domainRoute("journal"), {
  operationId: "getJournal",
  summary: "A month as days (newest first) with day totals, running month-to-date and the budget ceiling",
  request: { query: JournalQuery },
  responses: {
    "200": json("Journal", JournalResponse),
  },
  handle: async (ctx, { query }) => getJournal(ctx, query.month),
});

export const ListDaySummaries = route(domainRoute("journal"), {
  operationId: "listDaySummaries",
  summary: "The month's saved AI-written day summaries, by day",
  request: { query: JournalQuery },
  responses: {
    "200": json("Day summaries", DaySummariesResponse),
  },
  handle: async (ctx, { query }) => listDaySummaries(ctx, query.month),
});
