/**
 * Reading a receipt with the hosted model through the `openai` SDK. The shared AiProvider speaks
 * text only, so this module sends the multimodal message itself: an image as vision input, a text
 * PDF as its text, a scanned PDF (no text layer) as the PDF file. The model is forced to call
 * `record_receipt`; errors map onto AiError kinds like the shared provider's.
 */
import OpenAI, { APIConnectionTimeoutError, APIError, APIUserAbortError } from "openai";
import type { ChatCompletionContentPart } from "openai/resources/chat/completions";
import { extractText } from "unpdf";
import { AiError } from "../../ai/provider";
import type { Env } from "../../env";

export const RECEIPT_TOOL = {
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

function content(input: ReceiptInput): ChatCompletionContentPart[] {
  switch (input.method) {
    case "vision":
      return [
        { type: "text", text: "The receipt is this photo." },
        {
          type: "image_url",
          image_url: { url: `data:${input.contentType};base64,${base64(input.bytes)}`, detail: "high" },
        },
      ];
    case "pdf_text":
      return [{ type: "text", text: `The receipt's text:\n\n${input.text.slice(0, MAX_PDF_CHARS)}` }];
    case "pdf_file":
      return [
        { type: "text", text: "The receipt is this scanned PDF." },
        {
          type: "file",
          file: { filename: "receipt.pdf", file_data: `data:application/pdf;base64,${base64(input.bytes)}` },
        },
      ];
  }
}

function mapError(err: unknown): AiError {
  if (err instanceof AiError) return err;
  if (err instanceof APIConnectionTimeoutError || err instanceof APIUserAbortError) {
    return new AiError("timeout", "model request timed out");
  }
  if (err instanceof APIError && typeof err.status === "number") {
    return new AiError("http", `model API answered ${err.status}`, err.status);
  }
  return new AiError("network", "model API unreachable");
}

export interface ReceiptModel {
  model: string;
  read(input: ReceiptInput, timeoutMs: number): Promise<Record<string, unknown>>;
}

/** The configured model, or null when no model API key is set. */
export function receiptModelFromEnv(env: Env): ReceiptModel | null {
  const apiKey = env.MODEL_API_KEY?.trim();
  if (!apiKey) return null;
  const model = env.MODEL_NAME?.trim() || "gpt-4o-mini";
  const client = new OpenAI({ apiKey, baseURL: env.MODEL_BASE_URL?.trim() || undefined, maxRetries: 0 });
  return {
    model,
    async read(input, timeoutMs) {
      let completion: OpenAI.Chat.Completions.ChatCompletion;
      try {
        completion = await client.chat.completions.create(
          {
            model,
            temperature: 0,
            messages: [
              { role: "system", content: SYSTEM },
              { role: "user", content: content(input) },
            ],
            tools: [
              { type: "function", function: { ...RECEIPT_TOOL, parameters: { ...RECEIPT_TOOL.parameters } } },
            ],
            tool_choice: { type: "function", function: { name: RECEIPT_TOOL.name } },
          },
          { timeout: timeoutMs },
        );
      } catch (err) {
        throw mapError(err);
      }
      const message = completion.choices?.[0]?.message;
      if (!message) throw new AiError("no_tool_call", "model returned no completion");
      if (message.refusal) throw new AiError("refusal", "model refused to read the receipt");
      const call = message.tool_calls?.find(
        (c) => c.type === "function" && c.function.name === RECEIPT_TOOL.name,
      );
      if (call?.type !== "function") throw new AiError("no_tool_call", "model did not call record_receipt");
      try {
        const args = JSON.parse(call.function.arguments) as unknown;
        if (args === null || typeof args !== "object" || Array.isArray(args))
          throw new Error("not an object");
        return args as Record<string, unknown>;
      } catch {
        throw new AiError("malformed", "arguments of record_receipt are not a JSON object");
      }
    },
  };
}
