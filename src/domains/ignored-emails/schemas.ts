import { z } from "zod";

export const IGNORED_STATUSES = ["ignored", "sent_to_review"] as const;

export const IgnoredEmail = z
  .object({
    id: z.string().describe("`ign_` + hash of the raw message"),
    status: z.enum(IGNORED_STATUSES),
    from_name: z.string().nullable(),
    from_email: z.string().nullable(),
    subject: z.string().nullable(),
    email_date: z.string().nullable().describe("`MM/DD/YYYY HH:MM ZZZ` in the configured zone"),
    received_at: z.string(),
    reason: z.string().describe("The relevance check's code (`not_a_transaction_alert`, `classifier_no`)"),
    reason_text: z.string().describe("Why it was let go, in words"),
    failure_id: z.string().nullable().describe("The Needs review row it became, once sent there"),
  })
  .meta({ id: "IgnoredEmail", description: "An email the relevance check let go (kept 90 days)." });

export const IgnoredEmailListResponse = z
  .object({
    count: z.number().int(),
    retention_days: z.number().int(),
    emails: z.array(IgnoredEmail),
  })
  .meta({ id: "IgnoredEmailListResponse" });

export const IgnoredIdParams = z.object({ ignored_id: z.string().min(1).max(100) });

export const BankAlertResponse = z
  .object({
    id: z.string(),
    status: z.enum(IGNORED_STATUSES),
    outcome: z
      .enum(["created", "duplicate", "quarantined", "ignored"])
      .describe("What the pipeline made of it now that its sender counts as an alert sender"),
    failure_id: z.string().nullable().describe("The Needs review row (when quarantined)"),
    date_file_name: z.string().nullable().describe("The transaction (when a learned template read it)"),
    alert_sender: z.string().describe("This address now always passes the relevance check"),
  })
  .meta({ id: "BankAlertResponse" });
export type BankAlertResponse = z.infer<typeof BankAlertResponse>;
