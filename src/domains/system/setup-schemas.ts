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
    }),
  })
  .meta({
    id: "SetupStatusResponse",
    description: "What a first run needs: is the journal empty, how alerts get in.",
  });

export const DemoDataResponse = z
  .object({
    transactions: z.number().int(),
    overrides: z.number().int(),
    budget_year: z
      .number()
      .int()
      .nullable()
      .describe("The year a demo budget was written for (null: one existed)"),
    recipient: z.string(),
  })
  .meta({ id: "DemoDataResponse", description: "What the demo household seeding wrote." });

export type SetupStatus = z.infer<typeof SetupStatusResponse>;
export type DemoDataResult = z.infer<typeof DemoDataResponse>;
