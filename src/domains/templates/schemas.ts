import { z } from "zod";

export const TemplateSummary = z
  .object({
    id: z.string(),
    name: z.string(),
    institution: z.string().describe("Stored on the transactions the template reads"),
    sender_domain: z.string(),
    subject_words: z.array(z.string()).describe("Words every matching email's subject holds"),
    transaction_type: z.string(),
    example: z
      .string()
      .describe("The value lines of the email it was learned from, values and digits masked"),
    match_count: z.number().int().describe("Emails read into transactions since it was learned"),
    last_matched_at: z.string().nullable(),
    source_failure_id: z.string().nullable(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: "AlertTemplate", description: "A bank alert template learned from one hand-resolved email." });

export const TemplateListResponse = z
  .object({ count: z.number().int(), templates: z.array(TemplateSummary) })
  .meta({ id: "AlertTemplateListResponse" });

export const TemplateIdParams = z.object({ template_id: z.string().min(1).max(100) });

export const TemplateRenameRequest = z
  .object({ name: z.string().trim().min(1).max(100) })
  .meta({ id: "AlertTemplateRenameRequest" });

export const TemplateTestRequest = z
  .object({ raw: z.string().min(1).max(2_000_000).describe("The whole email, RFC 5322 text") })
  .meta({ id: "AlertTemplateTestRequest" });

export const TemplateTestResponse = z
  .object({
    matched: z.boolean(),
    reason: z.string().nullable().describe("Why the template does not read this email, in words"),
    amount: z.number().nullable(),
    company: z.string().nullable(),
    date: z.string().nullable().describe("YYYY-MM-DD when the email prints it"),
    time: z.string().nullable().describe("HH:MM when the email prints it"),
    institution: z.string(),
    transaction_type: z.string(),
  })
  .meta({
    id: "AlertTemplateTestResponse",
    description: "What the template would extract (nothing is written).",
  });

export const TemplateOffer = z
  .object({
    tx_id: z.string().describe("The AI-rescued transaction the template is derived from"),
    sender_domain: z.string(),
    suggested_institution: z.string(),
    amount: z.number(),
    company: z.string(),
    transaction_type: z.string(),
    example: z.string().describe("The template's value lines, values and digits masked"),
  })
  .meta({ id: "AlertTemplateOffer", description: "A template offered from a validated AI extraction." });

export const TemplateOfferListResponse = z
  .object({ count: z.number().int(), offers: z.array(TemplateOffer) })
  .meta({ id: "AlertTemplateOfferListResponse" });

export const OfferTxParams = z.object({ tx_id: z.string().min(1).max(2000) });

export const AcceptOfferRequest = z
  .object({ institution: z.string().trim().min(1).max(100).nullable().optional() })
  .meta({ id: "AlertTemplateAcceptRequest" });

export type TemplateOffer = z.infer<typeof TemplateOffer>;
export type TemplateSummary = z.infer<typeof TemplateSummary>;
export type TemplateTestResponse = z.infer<typeof TemplateTestResponse>;
