import { domainRoute, errors, json, route } from "../../http/route";
import { type AppContext, serviceCtx } from "../../http/context";
import { corsPolicy } from "../../http/cors";
import { sameSiteWriteAllowed } from "../../http/origin";
import { candidates } from "./candidates";
import {
  AttachmentIdParam,
  CandidatesQuery,
  ReceiptCandidatesResponse,
  AttachmentDeleteResponse,
  AttachmentResponse,
  LinkAttachmentRequest,
  AttachmentListResponse,
  ListAttachmentsQuery,
  BodyUploadAttachment,
} from "./schemas";
import { remove, file, link, toResponse, list, upload } from "./service";
import { servedFileHeaders } from "../../lib/served-file";
import { FAMILIES } from "./filetype";
import { readReceipt } from "./reading";
import { readUpload } from "../../http/upload";
import { ATTACHMENT_LIMITS, checkUpload } from "./files";

export const AttachmentsRoute = domainRoute("attachments");

export const ListReceiptMatchCandidates = route(AttachmentsRoute, {
  operationId: "listReceiptMatchCandidates",
  summary: "Rank the transactions a receipt might explain; auto-link a single exact match",
  description:
    "T1: amount within 0.02, same day, same normalized+aliased merchant. T2: amount within 0.02, ±3 days. " +
    "T3: a restaurant row up to 20% above the receipt (tip), ±3 days. At most 8; rows that already carry " +
    "a receipt come last. Uses the parse, or `total`/`date`/`merchant` given here. An unfiled receipt " +
    "with exactly one T1 candidate is linked by this request and journaled with the caller as principal " +
    "(demo mode and read-only tokens only see `auto_link_candidate`). 409 without a total and date.",
  request: { params: AttachmentIdParam, query: CandidatesQuery },
  responses: {
    "200": json("Ranked candidates", ReceiptCandidatesResponse),
    ...errors({ "404": "No such attachment", "409": "No total and date yet" }),
  },
  handle: async (ctx, { params, query }, c) =>
    candidates(ctx, {
      id: params.attachment_id,
      typed: query,
      opts: { mayLink: notCrossSite(c) },
    }),
});

/**
 * The auto-link is a write behind a GET, which the cross-site write guard does not cover: with
 * ambient credentials (cookie, TOFU) it only happens when the browser says the request is not
 * from a foreign page (an <img> elsewhere must not file receipts).
 */
function notCrossSite(c: AppContext): boolean {
  if (!["session", "tofu", "dev-bypass"].includes(c.get("principal").kind)) return true;
  return sameSiteWriteAllowed(
    c.req.url,
    c.req.header("origin"),
    c.req.header("sec-fetch-site"),
    corsPolicy(c.env.CORS_ALLOWED_ORIGINS).origins,
  );
}

export const DeleteAttachment = route(AttachmentsRoute, {
  operationId: "deleteAttachment",
  summary: "Delete an attachment and its file from disk",
  description: "The stored object goes too (unless the same bytes are still attached under another name).",
  request: { params: AttachmentIdParam },
  responses: {
    "200": json("Deleted", AttachmentDeleteResponse),
    ...errors({ "404": "No such attachment" }),
  },
  handle: async (ctx, { params }) => {
    const row = await remove(ctx, params.attachment_id);
    return { id: row.id, status: "deleted" };
  },
});

export const DownloadAttachmentFile = route(AttachmentsRoute, {
  operationId: "downloadAttachmentFile",
  summary: "Download the attachment file: images and PDFs inline, typed by their own bytes",
  description:
    "The content type is derived from the stored bytes (JPEG, PNG, WebP or PDF are served inline; " +
    "anything else as an `application/octet-stream` download), never from a stored string. Every " +
    "response carries `Content-Security-Policy: sandbox; default-src 'none'; frame-ancestors 'none'` and " +
    "`X-Content-Type-Options: nosniff`; the filename reaches Content-Disposition only escaped " +
    "(an ASCII fallback and the RFC 5987 UTF-8 form).",
  request: { params: AttachmentIdParam },
  responses: {
    "200": {
      description: "The file",
      // Every content type we serve: the file-type table's, typed by the bytes (never the client's),
      // and application/octet-stream for anything else.
      content: Object.fromEntries(
        [...new Set([...Object.values(FAMILIES).map((f) => f.contentType), "application/octet-stream"])].map(
          (t) => [t, { schema: { type: "string" as const, format: "binary" } }],
        ),
      ),
    },
    ...errors({ "404": "No such attachment (or its file is gone)" }),
  },
  handle: async (ctx, { params }) => {
    const { row, bytes, contentType } = await file(ctx, params.attachment_id);
    return new Response(bytes, {
      headers: servedFileHeaders({
        contentType,
        filename: row.original_filename,
        size: bytes.byteLength,
        cacheControl: "private, max-age=3600",
      }),
    });
  },
});

export const LinkAttachment = route(AttachmentsRoute, {
  operationId: "linkAttachment",
  summary: "Link an attachment to a transaction, or unlink it",
  description: "Journaled and reversible (POST /activity/{id}/revert puts the previous link back).",
  request: {
    params: AttachmentIdParam,
    body: { content: { "application/json": { schema: LinkAttachmentRequest } }, required: true },
  },
  responses: {
    "200": json("The updated attachment", AttachmentResponse),
    ...errors({ "404": "No such attachment or transaction" }),
  },
  handle: async (ctx, { params, body }) => {
    const after = await link(ctx, { id: params.attachment_id, txId: body.tx_id });
    return toResponse(after);
  },
});

export const ListAttachments = route(AttachmentsRoute, {
  operationId: "listAttachments",
  summary: "List attachments, optionally filtered by link status and kind",
  request: { query: ListAttachmentsQuery },
  responses: { "200": json("Attachments, newest first", AttachmentListResponse) },
  handle: async (ctx, { query }) => list(ctx, { unlinked: query.unlinked, kind: query.kind }),
});

export const ParseReceipt = route(AttachmentsRoute, {
  operationId: "parseReceipt",
  summary: "Parse a receipt attachment with the configured AI provider",
  description:
    "Synchronous. Requires the `ai_receipt_parsing_enabled` consent (422 VALIDATION_ERROR when off). " +
    "Sends the image (vision input), a PDF's text, or a scanned PDF to the model API. Fails closed: " +
    "merchant, date and total are required; a text PDF's total must be printed in it; line items that " +
    "miss the total by more than 0.05 are dropped. Failures persist `parse_status=failed` with the reason.",
  request: { params: AttachmentIdParam },
  responses: {
    "200": json("The parsed attachment (parse_json carries provenance)", AttachmentResponse),
    ...errors({
      "404": "No such attachment",
      "502": "The model API failed",
      "503": "No model API key configured",
      "504": "The model timed out",
    }),
  },
  handle: async (ctx, { params }) => {
    const { after } = await readReceipt(ctx, { id: params.attachment_id });
    return toResponse(after);
  },
});

export class UploadAttachment extends AttachmentsRoute {
  override schema = {
    operationId: "uploadAttachment",
    summary: "Upload a receipt or document, optionally linked to a transaction",
    description:
      "Store an uploaded receipt/document; link it immediately when `tx_id` is given. JPEG, PNG, WebP, " +
      "HEIC/HEIF or PDF up to 10 MB; the extension, the declared type and the file's own bytes must agree " +
      "(415 otherwise). The same file under the same name upserts (same id). HEIC/HEIF is stored as a JPEG " +
      "(long edge at most 2048 px); a server without the Images binding converts photos up to 5 megapixels " +
      "(413 above, in words; the dashboard converts in the browser first), and a damaged HEIC is a 422.",
    request: {
      body: { content: { "multipart/form-data": { schema: BodyUploadAttachment } }, required: true },
    },
    responses: {
      "200": json("The stored attachment", AttachmentResponse),
      ...errors({
        "404": "tx_id names no transaction",
        "413": "Larger than 10 MB, or a HEIC photo with more pixels than this server converts",
        "415": "Not an accepted type",
      }),
    },
  };

  override async handle(c: AppContext) {
    const ctx = serviceCtx(c);
    const file = await readUpload(c.req.raw, ATTACHMENT_LIMITS);
    const checked = checkUpload({ ...file, kind: file.field("kind"), txId: file.field("tx_id") });
    const after = await upload(ctx, checked);
    return c.json(after);
  }
}
