import { z } from "zod";
import { TRANSACTION_TYPES } from "../../lib/transaction-types";

const FAILURE_STATUSES = ["quarantined", "recovered", "resolved", "dismissed"] as const;
const FailureStatus = z.enum(FAILURE_STATUSES);

export const ParseFailureSummary = z
  .object({
    id: z.string().describe("Deterministic id: `pf_` + hash of the Message-ID (or of the raw message)"),
    received_at: z.string(),
    updated_at: z.string(),
    from_email: z.string().nullable(),
    subject: z.string().nullable(),
    forwarded_to: z.string().nullable(),
    email_date: z.string().nullable().describe("`MM/DD/YYYY HH:MM ZZZ` in the configured zone"),
    detected_institution: z.string().nullable(),
    failure_stage: z.string(),
    status: FailureStatus,
    recovered_date_file_name: z.string().nullable(),
    alert_classifier_result: z.boolean().nullable(),
    error: z.string().nullable().describe("Why extraction or validation failed, when known"),
  })
  .meta({ id: "ParseFailureSummary", description: "Triage view of a quarantined email (no body)." });

export const ResolveSuggestion = z
  .object({
    amount: z.number().nullable().describe("The first amount printed with a currency mark or label"),
    date: z.string().nullable().describe("YYYY-MM-DD: the printed transaction date"),
    time: z.string().nullable().describe("HH:MM (24 h) printed after that date"),
    company: z
      .string()
      .nullable()
      .describe("A merchant guess: a merchant label's value or the name after 'at'"),
  })
  .meta({
    id: "ResolveSuggestion",
    description: "What the email plainly says, to prefill the resolve form (each value null when not found)",
  });

export const ParseFailureDetail = ParseFailureSummary.extend({
  suggestion: ResolveSuggestion,
  body: z.string(),
  from_name: z.string().nullable(),
  to_email: z.string().nullable(),
  raw_key: z.string().nullable().describe("R2 key of the original message"),
}).meta({ id: "ParseFailureDetail", description: "Full view of a quarantined email, body included." });

export const ParseFailureListResponse = z
  .object({ count: z.number().int(), failures: z.array(ParseFailureSummary) })
  .meta({ id: "ParseFailureListResponse" });

/** The reference's bounds of the list's `limit`. */
const LIST_LIMIT_DEFAULT = 100;
const LIST_LIMIT_MAX = 10_000;

export const ListQuery = z.object({
  status: FailureStatus.optional().describe("Only rows in this status (default: every status but dismissed)"),
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(LIST_LIMIT_MAX)
    .default(LIST_LIMIT_DEFAULT)
    .describe(`Max rows to return (default ${LIST_LIMIT_DEFAULT}, at most ${LIST_LIMIT_MAX}), newest first`),
});

export const FailureIdParams = z.object({ failure_id: z.string().min(1).max(100) });

export const DismissResponse = z
  .object({ failure_id: z.string(), status: z.string() })
  .meta({ id: "DismissResponse" });

export const RetryResponse = z
  .object({
    failure_id: z.string(),
    status: z.enum(["recovered", "duplicate", "still_failing"]),
    date_file_name: z.string().nullable(),
    failure_stage: z.string().nullable(),
    reason: z
      .string()
      .nullable()
      .describe(
        "Why it still fails, in words, when the sender has learned templates (which anchor did not match)",
      ),
  })
  .meta({ id: "RetryResponse" });

export const RetryAllRequest = z
  .object({
    // Bounded: a filter rides in each queued step's message (128 KB a message).
    from_domain: z
      .string()
      .max(253)
      .nullable()
      .optional()
      .describe("Only rows whose sender domain ends with this"),
    institution: z
      .string()
      .max(100)
      .nullable()
      .optional()
      .describe("Only rows whose detected institution equals this"),
  })
  .meta({ id: "RetryAllRequest", description: "Optional filter; without one the whole backlog is retried." });

export const RetryAllResponse = z
  .object({
    retried: z.number().int(),
    created: z.number().int(),
    duplicates: z.number().int(),
    still_failing: z.number().int(),
    status: z
      .enum(["done", "running"])
      .optional()
      .describe("running: a backlog past one step (100 rows) goes on in the background; its counts so far"),
    task_id: z.string().nullable().optional(),
  })
  .meta({ id: "RetryAllResponse" });

export const RetryAllStatus = z
  .object({
    status: z.enum(["idle", "running", "done", "error"]),
    retried: z.number().int(),
    created: z.number().int(),
    duplicates: z.number().int(),
    still_failing: z.number().int(),
    task_id: z.string().nullable(),
    started_at: z.string().nullable(),
    finished_at: z.string().nullable(),
    steps: z.number().int(),
    error: z.string().nullable(),
  })
  .meta({ id: "RetryAllStatus", description: "The latest retry-all run, with its counts so far" });

export const ManualResolveRequest = z
  .object({
    date: z.iso.date().describe("Transaction date, YYYY-MM-DD"),
    amount: z.number().gt(0).lt(100_000_000),
    company: z.string().trim().min(1).max(500),
    category: z.string().trim().min(1).max(100).nullable().optional(),
    institution: z.string().trim().min(1).max(100).nullable().optional(),
    transaction_type: z.enum(TRANSACTION_TYPES).default("purchase"),
    time: z
      .string()
      .regex(/^([01]\d|2[0-3]):[0-5]\d$/)
      .nullable()
      .optional()
      .describe("Time of day, HH:MM (24 h), when the email prints it; the row is stored at 00:00 without it"),
    varying: z
      .array(z.string().trim().min(1).max(200))
      .max(10)
      .optional()
      .describe(
        "Texts of the email that change from alert to alert (a card name, a location): the learned " +
          "template skips them (bounded wildcards) instead of requiring them word for word",
      ),
    learn_template: z
      .boolean()
      .optional()
      .describe(
        "Read future emails like this one: learn a template from the typed values (default: true when " +
          "no built-in parser owns the sender's domain)",
      ),
    proposed: z
      .boolean()
      .optional()
      .describe(
        "The values are the model's reading the person confirmed (GET …/template-proposal): the " +
          "activity entry says so; the resolve is otherwise the same",
      ),
    confirm_not_in_email: z
      .boolean()
      .optional()
      .describe(
        "Save even when the typed amount or date does not appear in the email: without it such a resolve " +
          "is refused before anything is saved (422 NOT_IN_EMAIL, `details.unseen` names each value and " +
          "`details.suggestion` what the email says)",
      ),
  })
  .meta({ id: "ManualResolveRequest", description: "Hand-entered values for a quarantined email." });
export type ManualResolveRequest = z.infer<typeof ManualResolveRequest>;

/** A resolve's ledger image (kind `parse-failure-resolve`): the failure's status and the row it made. */
export const ResolveImage = z.object({ status: z.string(), tx_id: z.string().nullable() });
export type ResolveImage = z.infer<typeof ResolveImage>;

export const ManualResolveResponse = z
  .object({
    failure_id: z.string(),
    status: z.string(),
    date_file_name: z.string().nullable(),
    template_id: z.string().nullable().optional().describe("The template learned from this email"),
    template_name: z.string().nullable().optional(),
    template_reason: z
      .string()
      .nullable()
      .optional()
      .describe("Why no template was learned, in words (null when one was, or none was asked for)"),
    template_note: z
      .string()
      .nullable()
      .optional()
      .describe(
        "When the sender already had a template: merged with this email (one template reads both), " +
          "or why it was kept as a second template, in words",
      ),
  })
  .meta({ id: "ManualResolveResponse" });

export const TemplateProposalResponse = z
  .object({
    asked: z
      .boolean()
      .describe("Whether the model was asked (alert reading has a provider and the person's consent)"),
    proposal: z
      .object({
        date: z.string().describe("YYYY-MM-DD: the printed date (the sent day when the email prints none)"),
        time: z
          .string()
          .nullable()
          .describe("HH:MM printed with it, when the model read one the email prints"),
        amount: z.number().describe("The amount, found standing alone in the email"),
        currency: z.string().nullable().describe("ISO 4217 code printed with the amount, when one is"),
        company: z.string().describe("The merchant or payee, printed in the email"),
        transaction_type: z.enum(TRANSACTION_TYPES),
        institution: z
          .string()
          .describe("The bank's name for the template (detected, else the sender's domain)"),
        model: z.string().describe("The model that read the email"),
        template_name: z
          .string()
          .nullable()
          .describe(
            "The template confirming would teach (null: these values teach none, see template_reason)",
          ),
        template_reason: z.string().nullable().describe("Why no template would be learned, in words"),
        note: z.string().nullable().describe("What the person should know before confirming, in words"),
      })
      .nullable()
      .describe("The model's reading, every value checked against the email's text; null when none"),
    reason: z.string().nullable().describe("Why there is no proposal, in words"),
  })
  .meta({
    id: "AlertTemplateProposal",
    description:
      "The model's reading of a quarantined alert, offered as a template: nothing is saved until the person " +
      "confirms it through POST /parse-failures/{failure_id}/resolve",
  });

export const FixtureFromFailureRequest = z
  .object({ institution: z.string().nullable().optional() })
  .meta({ id: "FixtureFromFailureRequest" });

export type ParseFailureSummary = z.infer<typeof ParseFailureSummary>;
export type ParseFailureDetail = z.infer<typeof ParseFailureDetail>;
