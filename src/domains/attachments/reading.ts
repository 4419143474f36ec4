/**
 * POST /attachments/{id}/parse: the synchronous AI read of a receipt, only with the person's
 * consent (`ai_receipt_parsing_enabled`). What is sent: the stored image (vision input), or a
 * PDF's text, or a scanned PDF itself, to the provider document parsing is routed to. Every failure is persisted
 * as parse_status `failed` with the reason, and nothing of a failed read is kept.
 */
import { AiError } from "../../ai/provider";
import { getDb } from "../../db";
import { isCli, PROVIDER_WORDS, providerForTask } from "../../ai/routing";
import type { AttachmentRow } from "../../db/schema";
import type { ServiceCtx } from "../../lib/context";
import { ApiError, type DomainError, notFound, Refused, validationError } from "../../lib/errors";
import { checkPdf, PdfRefused } from "../../lib/pdf-guard";
import { loadSettings } from "../config/service";
import { getObjectBytes } from "./files";
import { DEFAULT_PARSE_TIMEOUT_MS, pdfTextLayer, type ReceiptInput, readReceiptWith } from "./parse";
import { setParse } from "./queries";
import { RECEIPT_SCHEMA_VERSION, validateReceipt } from "./receipt-rules";
import { loadAttachment, toResponse } from "./service";

/** A receipt is a page or two; an invoice with its terms a few more. */
const MAX_RECEIPT_PAGES = 30;

export interface ReadOptions {
  timeoutMs?: number;
}

const consentOff = () =>
  validationError(
    [
      {
        loc: ["config", "ai_receipt_parsing_enabled"],
        msg: "AI receipt parsing is off; turn on ai_receipt_parsing_enabled in Settings to send receipts to the model",
        type: "consent_required",
      },
    ],
    "AI receipt parsing is off (ai_receipt_parsing_enabled)",
  );

async function inputOf(
  row: AttachmentRow,
  bytes: Uint8Array,
): Promise<{ input: ReceiptInput; pdfText: string | null }> {
  if (row.content_type === "application/pdf") {
    const text = await pdfTextLayer(bytes);
    return text !== null
      ? { input: { method: "pdf_text", text }, pdfText: text }
      : { input: { method: "pdf_file", bytes }, pdfText: null };
  }
  return { input: { method: "vision", contentType: row.content_type, bytes }, pdfText: null };
}

function failureStatus(err: AiError): ApiError | DomainError {
  if (err.kind === "timeout") return new ApiError(504, "The model did not answer in time", "GATEWAY_TIMEOUT");
  // A refused key or an unknown model is the configuration, not an outage: a 4xx in words.
  if (err.kind === "http" && (err.status === 401 || err.status === 403))
    return new Refused(
      "The model API refused the key: check MODEL_API_KEY (or the bridge's token).",
      "AI_NOT_CONFIGURED",
    );
  if (err.kind === "http" && (err.status === 400 || err.status === 404))
    return new Refused(
      "The model API does not know the chosen model: check Document parsing's model under Settings → Intelligence.",
      "AI_NOT_CONFIGURED",
    );
  if (err.kind === "http" || err.kind === "network") {
    return new ApiError(502, "The model API could not be reached", "BAD_GATEWAY", { status: err.status });
  }
  return new Refused(`The model could not read the receipt (${err.kind})`, "RECEIPT_UNREADABLE");
}

export async function readReceipt(ctx: ServiceCtx, { id, deps = {} }: { id: string; deps?: ReadOptions }) {
  const before = await loadAttachment(ctx, id);
  const settings = await loadSettings(ctx);
  if (!settings.ai_receipt_parsing_enabled) throw consentOff();
  const timeoutMs = deps.timeoutMs ?? DEFAULT_PARSE_TIMEOUT_MS;
  const routed = providerForTask(ctx.env, settings, "document_parsing", { timeoutMs });
  // Not set up is the person's configuration, not a server fault: a 4xx in words.
  if (!routed.ok) throw new Refused(routed.reason, "AI_NOT_CONFIGURED");
  if (before.content_type === "image/heic") {
    throw new Refused(
      "HEIC photos cannot be sent to the model; upload the receipt as JPEG",
      "RECEIPT_UNREADABLE",
    );
  }
  const bytes = await getObjectBytes(ctx.env, before.r2_key);
  if (!bytes) throw notFound("Attachment file");
  const fail = async (reason: string, error: Error) => {
    await setParse(getDb(ctx.env.DB), id, {
      status: "failed",
      error: reason,
      json: null,
      nowIso: ctx.clock().toISOString(),
    });
    return error;
  };
  // The one PDF cost check (lib/pdf-guard.ts) before pdf.js reads the text layer: a bomb fails in words.
  if (before.content_type === "application/pdf") {
    try {
      checkPdf(bytes, MAX_RECEIPT_PAGES);
    } catch (err) {
      if (!(err instanceof PdfRefused)) throw err;
      throw await fail(err.message, new Refused(err.message, "RECEIPT_UNREADABLE"));
    }
  }
  const { input, pdfText } = await inputOf(before, bytes);
  if (isCli(routed.route.provider) && input.method !== "pdf_text") {
    throw new Refused(
      `${PROVIDER_WORDS[routed.route.provider]} reads text only: this receipt is a ${input.method === "vision" ? "photo" : "scanned PDF"}. Choose the hosted model API for document parsing under Settings → Intelligence, or attach a PDF with text.`,
      "RECEIPT_UNREADABLE",
    );
  }
  let args: Record<string, unknown>;
  try {
    args = await readReceiptWith(routed.provider, input, timeoutMs);
  } catch (err) {
    const e = err instanceof AiError ? err : new AiError("network", String(err));
    throw await fail(e.message, failureStatus(e));
  }
  const check = validateReceipt(args, pdfText);
  if (!check.ok) {
    throw await fail(check.reason, new Refused(check.reason, "RECEIPT_UNREADABLE"));
  }
  const at = ctx.clock().toISOString();
  const parsed = {
    ...check.read,
    method: input.method,
    provider: routed.route.provider,
    model: routed.model,
    parsed_at: at,
    schema_version: RECEIPT_SCHEMA_VERSION,
  };
  // The entry (images of the parse fields, for transparency: not reversible) rides in the write.
  const done = { ...before, parse_status: "parsed", parse_error: null, parse_json: parsed, updated_at: at };
  const image = (r: AttachmentRow) => ({
    parse_status: r.parse_status,
    parse_json: toResponse(r).parse_json,
  });
  ctx.journal({
    kind: "attachment",
    resourceId: id,
    before: image(before),
    after: image(done),
    summary: `Parsed receipt ${before.original_filename}`,
    reversible: false,
  });
  // The row as written comes back from the write itself (no read after it).
  const [rows] = await ctx.batch([
    setParse(getDb(ctx.env.DB), id, { status: "parsed", error: null, json: parsed, nowIso: at }).returning(),
  ]);
  const after = rows[0];
  if (!after) throw notFound("Attachment");
  return { before, after };
}
