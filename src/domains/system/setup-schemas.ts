import { z } from "zod";

export const SetupStatusResponse = z
  .object({
    empty: z.boolean().describe("No transactions at all (trash included): the first-run screen applies"),
    password_set: z.boolean(),
    local: z.boolean().describe("This request reached the Worker over loopback (this machine)"),
    demo_data_available: z
      .boolean()
      .describe("POST /api/v1/setup/demo-data would succeed: local, empty and not the read-only demo"),
    email_routing: z.object({
      forward_to: z
        .array(z.string())
        .describe("Recipient addresses alerts have arrived at so far (empty until the first email)"),
    }),
    mailbox: z.object({
      configured: z.boolean().describe("IMAP_HOST is set: the Worker polls a mailbox every minute"),
      address: z.string().nullable().describe("The polled mailbox's user (the address to forward to)"),
      folder: z.string().nullable(),
      last_poll: z.string().nullable(),
      last_error: z.string().nullable().describe("The last poll error's class only, never server text"),
      backlog: z
        .number()
        .int()
        .nullable()
        .describe(
          "Messages above the poller's cursor still to read after its last step (a new mailbox is read in steps, one after another); null before the first poll",
        ),
    }),
  })
  .meta({
    id: "SetupStatusResponse",
    description: "What a first run needs: is the journal empty, how alerts get in.",
  });

export const DemoDataQuery = z.object({
  today: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, "must be a date as YYYY-MM-DD")
    .optional()
    .describe("The demo's today (its fixed clock; default: now). Months count back from it"),
  seed: z.coerce
    .number()
    .int()
    .min(0)
    .max(2 ** 31)
    .optional()
    .describe("The generator's seed"),
  months: z.coerce
    .number()
    .int()
    .min(1)
    .max(12)
    .optional()
    .describe("Months of alerts, counting back (default 8)"),
});

const DemoDataResponse = z
  .object({
    transactions: z.number().int().describe("Transaction rows in the journal afterwards"),
    emails: z.number().int().describe("Generated bank alerts sent through the ingest pipeline"),
    quarantined: z.number().int().describe("Alerts the pipeline quarantined (none expected)"),
    statement_imported: z
      .number()
      .int()
      .describe("Rows the card statement added through upload → reconcile → import (alerts it missed)"),
    receipts: z.number().int().describe("Store receipts uploaded and linked to their purchases"),
    overrides: z.number().int(),
    budget_year: z
      .number()
      .int()
      .nullable()
      .describe("The year a demo budget was written for (null: one existed)"),
    recipient: z.string(),
  })
  .meta({ id: "DemoDataResponse", description: "What the demo household seeding wrote." });

export const DemoDataStatus = z
  .object({
    status: z.enum(["idle", "running", "done", "error"]),
    task_id: z.string().nullable(),
    started_at: z.string().nullable(),
    finished_at: z.string().nullable(),
    error: z.string().nullable(),
    stage: z
      .enum(["alerts", "statement", "done"])
      .nullable()
      .describe("alerts: sending the generated alerts; statement: the statement, receipts and chores"),
    emails_done: z.number().int().describe("Generated alerts sent through the ingest pipeline so far"),
    emails_total: z.number().int().describe("All the generated alerts of this seed"),
    steps: z.number().int().describe("Background steps done"),
    result: DemoDataResponse.nullable().describe("What the seed wrote, once done"),
  })
  .meta({
    id: "DemoDataStatus",
    description: "The latest demo seeding: its alerts sent of all while running, what it wrote when done.",
  });

export type SetupStatus = z.infer<typeof SetupStatusResponse>;
export type DemoDataStatus = z.infer<typeof DemoDataStatus>;
