import { calendarDate } from "../../lib/calendar";
import { z } from "zod";

export const AttachmentResponse = z
  .object({
    id: z.string(),
    original_filename: z.string(),
    content_type: z
      .string()
      .describe("Ours, from the checked file type (HEIC converted to JPEG reads image/jpeg)"),
    size_bytes: z.number().int(),
    sha256: z.string().describe("SHA-256 (hex) of the uploaded file"),
    kind: z.string().describe("`receipt` or `document`"),
    parse_status: z.string().describe("`unparsed`, `parsed` or `failed` (see POST /attachments/{id}/parse)"),
    parse_error: z.string().nullable().optional(),
    parse_json: z
      .record(z.string(), z.unknown())
      .nullable()
      .optional()
      .describe("Parsed receipt data, when present: merchant, date, total, line_items?, and provenance"),
    tx_id: z.string().nullable().optional().describe("Linked transaction id; null when unfiled."),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: "AttachmentResponse", description: "A single attachment row as seen by the API." });
export type AttachmentResponse = z.infer<typeof AttachmentResponse>;

export const AttachmentListResponse = z
  .object({ count: z.number().int(), attachments: z.array(AttachmentResponse) })
  .meta({ id: "AttachmentListResponse" });
export type AttachmentListResponse = z.infer<typeof AttachmentListResponse>;

export const AttachmentDeleteResponse = z
  .object({ id: z.string(), status: z.string().describe("`deleted`") })
  .meta({ id: "AttachmentDeleteResponse" });

export const BodyUploadAttachment = z
  .object({
    file: z.string().meta({ format: "binary", contentMediaType: "application/octet-stream" }),
    kind: z.string().default("receipt").describe("`receipt` (default) or `document`"),
    tx_id: z.string().nullable().optional().describe("Link to this transaction at once"),
  })
  .meta({
    id: "Body_uploadAttachment",
    description:
      "JPEG, PNG, WebP, HEIC/HEIF or PDF, at most 10 MB. The extension, the declared content type and " +
      "the file's own leading bytes must agree.",
  });

export const LinkAttachmentRequest = z
  .object({
    tx_id: z.string().min(1).nullable().describe("Transaction id to link to; null unlinks."),
  })
  .strict()
  .meta({ id: "LinkAttachmentRequest", description: "Link an attachment to a transaction, or unlink it." });

export const AttachmentIdParam = z.object({ attachment_id: z.string().min(1).max(64) });

export const ListAttachmentsQuery = z.object({
  unlinked: z.boolean().nullable().optional().describe("true: only unfiled; false: only linked"),
  kind: z.string().nullable().optional(),
});

export const CandidatesQuery = z.object({
  total: z
    .number()
    .positive()
    .optional()
    .describe("The receipt's total, when it was not parsed (or to correct it)"),
  date: calendarDate("must be YYYY-MM-DD").optional().describe("The receipt's date, when it was not parsed"),
  merchant: z.string().max(200).optional().describe("The receipt's merchant, when it was not parsed"),
});

export const ReceiptCandidate = z
  .object({
    tx_id: z.string(),
    tier: z.number().int().describe("1 = exact match, 2 = amount within window, 3 = tip window."),
    day_distance: z.number().int(),
    amount_distance: z.number(),
    company: z.string(),
    amount: z.number(),
    date: z.string().describe("YYYY-MM-DD"),
    category: z.string(),
    already_has_receipt: z.boolean(),
  })
  .meta({ id: "ReceiptCandidate", description: "One transaction a receipt might explain, ranked." });
export type ReceiptCandidate = z.infer<typeof ReceiptCandidate>;

export const ReceiptCandidatesResponse = z
  .object({
    attachment_id: z.string(),
    auto_link_candidate: z
      .boolean()
      .describe("Exactly one tier-1 candidate (without a receipt) exists and the attachment was unfiled"),
    auto_linked: z
      .boolean()
      .describe(
        "This request linked the attachment to the first candidate (never in demo mode or for read tokens)",
      ),
    candidates: z.array(ReceiptCandidate),
    attachment: AttachmentResponse,
  })
  .meta({
    id: "ReceiptCandidatesResponse",
    description:
      "Ranked candidates (at most 8; rows that already carry a receipt come last). With exactly one " +
      "tier-1 candidate an unfiled receipt is linked by this request, journaled with the caller as principal.",
  });
export type ReceiptCandidatesResponse = z.infer<typeof ReceiptCandidatesResponse>;
