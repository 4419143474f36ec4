/**
 * Reading a receipt through the one model client (src/ai): an image as vision input, a text PDF
 * as its text, a scanned PDF (no text layer) as the PDF file. The model is forced to call
 * `record_receipt`; the provider comes from the routing layer (document parsing).
 */
import { extractText } from "unpdf";
import type { AiProvider, ContentPart, ToolSpec } from "../../ai/provider";

const RECEIPT_TOOL = {
  name: "record_receipt",
  description: "Record what the receipt says. Use null for anything not printed on it.",
  parameters: {
    type: "object",
    properties: {
      merchant: { type: ["string", "null"], description: "The store or restaurant name as printed" },
      date: { type: ["string", "null"], description: "The purchase date, YYYY-MM-DD" },
      total: { type: ["number", "null"], description: "The amount paid, tax and tip included" },
      currency: { type: ["string", "null"], description: "ISO 4217 code when printed" },
      line_items: {
        type: ["array", "null"],
        description: "Every priced line, including tax, tip and fees, so that they add up to the total",
        items: {
          type: "object",
          properties: { description: { type: "string" }, amount: { type: "number" } },
          required: ["description", "amount"],
        },
      },
    },
    required: ["merchant", "date", "total"],
  },
} as const;

const SYSTEM =
  "You read one shopping or restaurant receipt and record it with the record_receipt tool. " +
  "Copy what is printed; never guess a value that is not on the receipt.";

export const DEFAULT_PARSE_TIMEOUT_MS = 45_000;
/** Characters of PDF text sent to the model (a receipt is far shorter). */
const MAX_PDF_CHARS = 20_000;

export type ReceiptInput =
  | { method: "vision"; contentType: string; bytes: Uint8Array }
  | { method: "pdf_text"; text: string }
  | { method: "pdf_file"; bytes: Uint8Array };

/** A PDF's text layer, or null when it has none worth reading (a scan). */
export async function pdfTextLayer(bytes: Uint8Array): Promise<string | null> {
  try {
    // pdf.js may detach the buffer it is given: hand it a copy.
    const { text } = await extractText(new Uint8Array(bytes), { mergePages: true });
    return text.replace(/\s+/g, " ").trim().length >= 8 ? text : null;
  } catch {
    return null;
  }
}

function base64(bytes: Uint8Array): string {
  let bin = "";
  for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(bin);
}

/** The receipt as the user message: text for a PDF's text, a photo or a scanned PDF as a part. */
function request(input: ReceiptInput): { user: string; parts?: ContentPart[] } {
  switch (input.method) {
    case "pdf_text":
      return { user: `The receipt's text:\n\n${input.text.slice(0, MAX_PDF_CHARS)}` };
    case "vision": {
      const user = "The receipt is this photo.";
      const dataUrl = `data:${input.contentType};base64,${base64(input.bytes)}`;
      return {
        user,
        parts: [
          { type: "text", text: user },
          { type: "image", dataUrl },
        ],
      };
    }
    case "pdf_file": {
      const user = "The receipt is this scanned PDF.";
      const dataUrl = `data:application/pdf;base64,${base64(input.bytes)}`;
      return {
        user,
        parts: [
          { type: "text", text: user },
          { type: "file", filename: "receipt.pdf", dataUrl },
        ],
      };
    }
  }
}

/** Reads a receipt with the provider the routing layer gave document parsing (a forced tool call). */
export function readReceiptWith(
  provider: AiProvider,
  input: ReceiptInput,
  timeoutMs: number,
): Promise<Record<string, unknown>> {
  const tool = { ...RECEIPT_TOOL, parameters: { ...RECEIPT_TOOL.parameters } } as ToolSpec;
  return provider.callTool({ system: SYSTEM, ...request(input), tool, timeoutMs });
}
