import { z } from "zod";
import { Month, TransactionResponse } from "../transactions/schemas";

export const JournalDay = z
  .object({
    date: z.string().describe("YYYY-MM-DD"),
    day_total: z.number().describe("Spending (purchase, withdrawal, preauth) of the day"),
    deposit_total: z.number(),
    count: z.number().int(),
    mtd_total: z.number().describe("Running month-to-date spending, computed oldest to newest"),
    transactions: z.array(TransactionResponse),
    summary: z.string().nullable().describe("The saved AI-written summary of the day, if any"),
  })
  .meta({ id: "JournalDay" });

export const JournalResponse = z
  .object({
    month: z.string(),
    days: z.array(JournalDay).describe("Newest first"),
    month_total: z.number(),
    transaction_count: z.number().int(),
    budget_ceiling: z
      .number()
      .nullable()
      .describe("Annual spending ceiling ÷ 12, when a budget is configured"),
  })
  .meta({ id: "JournalResponse" });

export const DaySummariesResponse = z
  .object({ month: z.string(), summaries: z.record(z.string(), z.string()) })
  .meta({ id: "DaySummariesResponse" });

export const JournalQuery = z.object({ month: Month });
