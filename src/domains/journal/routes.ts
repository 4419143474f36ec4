import { domainRoute, json, route, type domainRouter } from "../../http/route";
import { DaySummariesResponse, JournalQuery, JournalResponse } from "./schemas";
import { getJournal, listDaySummaries } from "./service";
import { calendarDate } from "../../lib/calendar";
import { z } from "zod";
import { ErrorEnvelope } from "../../http/errors";
import { Month } from "../transactions/schemas";
import { daySummaryStatus, startDaySummaries } from "./summaries";

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

const SummariesRoute = domainRoute("journal");

export const DaySummaryGenerateRequest = z
  .object({
    month: Month,
    dates: z.array(calendarDate()).max(31).nullable().optional(),
    force: z.boolean().default(false).describe("Rewrite days that already have a summary"),
  })
  .meta({ id: "DaySummaryGenerateRequest" });

export const DaySummaryGenerateResponse = z
  .object({
    status: z.enum(["running", "idle"]).describe("idle: every day already had a summary"),
    month: z.string(),
    dates_queued: z.number().int(),
    task_id: z.string().optional(),
  })
  .meta({ id: "DaySummaryGenerateResponse" });

export const DaySummaryStatusResponse = z
  .object({
    status: z.enum(["idle", "running", "error"]),
    month: z.string().nullable(),
    total: z.number().int(),
    completed: z.number().int(),
    error: z.string().nullable(),
    task_id: z.string().nullable(),
  })
  .meta({ id: "DaySummaryStatusResponse" });

export const GenerateDaySummaries = route(SummariesRoute, {
  operationId: "generateDaySummaries",
  summary: "Write the month's missing day summaries in the background (one job at a time)",
  request: { body: { content: { "application/json": { schema: DaySummaryGenerateRequest } } } },
  responses: {
    "202": json("Started (or nothing to do)", DaySummaryGenerateResponse),
    "409": json("A day-summaries job is already running", ErrorEnvelope),
  },
  handle: async (ctx, { body }, c) => c.json(await startDaySummaries(ctx, body), 202),
});

export const GetDaySummaryStatus = route(SummariesRoute, {
  operationId: "getDaySummaryGenerationStatus",
  summary: "Progress of the day-summaries job",
  responses: { "200": json("Status", DaySummaryStatusResponse) },
  handle: async (ctx) => daySummaryStatus(ctx),
});

/** Mounted by the journal router (one line there). */
export function mountSummaryJobs(r: ReturnType<typeof domainRouter>) {
  r.post("/summaries/generate", GenerateDaySummaries);
  r.get("/summaries/status", GetDaySummaryStatus);
}
