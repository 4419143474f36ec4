import OpenAI, { APIConnectionTimeoutError, APIError, APIUserAbortError } from "openai";
import type { ChatCompletionContentPart } from "openai/resources/chat/completions";
import {
  AiError,
  type AiProvider,
  type ContentPart,
  type TextRequest,
  type ToolCallRequest,
} from "./provider";

/** Our content parts as the chat-completions API takes them. */
function toSdkParts(parts: ContentPart[]): ChatCompletionContentPart[] {
  return parts.map((p): ChatCompletionContentPart => {
    if (p.type === "text") return { type: "text", text: p.text };
    if (p.type === "image") return { type: "image_url", image_url: { url: p.dataUrl, detail: "high" } };
    return { type: "file", file: { filename: p.filename, file_data: p.dataUrl } };
  });
}

export interface HostedOptions {
  apiKey: string;
  baseURL?: string;
  model?: string;
  embeddingModel?: string;
  /** Per-request timeout ceiling (ms); callers may ask for less. */
  timeoutMs?: number;
  /** 0 or 1: ingestion must not stall behind long retry chains. */
  maxRetries?: 0 | 1;
  /** Reasoning effort sent with every request (a request's own effort wins). */
  effort?: string | null;
  /** False for the model bridge: it has no embeddings endpoint, so none is asked for. */
  embeddings?: boolean;
  /** False for the model bridge: a command-line tool takes no reasoning-effort field. */
  reasoning?: boolean;
}

const DEFAULT_TIMEOUT_MS = 20_000;

/** Maps SDK errors to the provider's error kinds. */
function mapError(err: unknown): AiError {
  if (err instanceof AiError) return err;
  if (err instanceof APIConnectionTimeoutError || err instanceof APIUserAbortError) {
    return new AiError("timeout", "model request timed out");
  }
  if (err instanceof APIError && typeof err.status === "number") {
    return new AiError("http", `model API answered ${err.status}`, err.status);
  }
  if (err instanceof APIError) return new AiError("network", `model API unreachable: ${err.message}`);
  return new AiError("network", err instanceof Error ? err.message : String(err));
}

/** Any OpenAI-compatible endpoint through the official SDK. */
export class HostedProvider implements AiProvider {
  readonly model: string;
  readonly embeddingModel: string;
  private readonly client: OpenAI;
  private readonly timeoutMs: number;
  private readonly effort: string | null;
  private readonly embeddings: boolean;
  private readonly reasoning: boolean;

  /** A per-call timeout never exceeds the provider's configured ceiling. */
  private timeoutFor(requested?: number): number {
    return requested ? Math.min(requested, this.timeoutMs) : this.timeoutMs;
  }

  constructor(opts: HostedOptions) {
    this.model = opts.model || "gpt-4o-mini";
    this.embeddingModel = opts.embeddingModel || "text-embedding-3-small";
    this.timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.effort = opts.effort ?? null;
    this.embeddings = opts.embeddings ?? true;
    this.reasoning = opts.reasoning ?? true;
    this.client = new OpenAI({
      apiKey: opts.apiKey,
      baseURL: opts.baseURL || undefined,
      timeout: this.timeoutMs,
      maxRetries: opts.maxRetries ?? 1,
    });
  }

  /** The request's effort, else the provider's; as the SDK field (only when set). */
  private effortField(requested?: string | null) {
    const effort = this.reasoning ? (requested ?? this.effort) : null;
    // The SDK's type lists fewer efforts than the settings allow; the API validates the value.
    return effort ? { reasoning_effort: effort as "low" } : {};
  }

  async callTool(req: ToolCallRequest): Promise<Record<string, unknown>> {
    const effort = this.effortField();
    const completion = await this.client.chat.completions
      .create(
        {
          model: this.model,
          // Reasoning models take an effort instead of a temperature.
          ...(effort.reasoning_effort ? effort : { temperature: 0 }),
          messages: [
            { role: "system", content: req.system },
            { role: "user", content: req.parts ? toSdkParts(req.parts) : req.user },
          ],
          tools: [{ type: "function", function: { ...req.tool } }],
          tool_choice: { type: "function", function: { name: req.tool.name } },
        },
        { timeout: this.timeoutFor(req.timeoutMs) },
      )
      .catch((err) => Promise.reject(mapError(err)));
    const message = completion.choices?.[0]?.message;
    if (!message) throw new AiError("no_tool_call", "model returned no completion");
    if (message.refusal) throw new AiError("refusal", "model refused the request");
    const call = message.tool_calls?.find((c) => c.type === "function" && c.function.name === req.tool.name);
    if (call?.type !== "function") throw new AiError("no_tool_call", `model did not call ${req.tool.name}`);
    try {
      const args = JSON.parse(call.function.arguments) as unknown;
      if (args === null || typeof args !== "object" || Array.isArray(args)) throw new Error("not an object");
      return args as Record<string, unknown>;
    } catch {
      throw new AiError("malformed", `arguments of ${req.tool.name} are not a JSON object`);
    }
  }

  async generateText(req: TextRequest): Promise<string> {
    try {
      const completion = await this.client.chat.completions.create(
        {
          model: this.model,
          messages: [
            { role: "system", content: req.system },
            { role: "user", content: req.user },
          ],
          ...(req.maxTokens ? { max_tokens: req.maxTokens } : {}),
          ...this.effortField(req.effort),
        },
        { timeout: this.timeoutFor(req.timeoutMs), ...(req.signal ? { signal: req.signal } : {}) },
      );
      const message = completion.choices?.[0]?.message;
      if (message?.refusal) throw new AiError("refusal", "model refused the request");
      const text = message?.content ?? "";
      if (!text.trim()) throw new AiError("no_tool_call", "model returned no text");
      return text;
    } catch (err) {
      throw mapError(err);
    }
  }

  async embed(texts: string[]): Promise<number[][]> {
    if (texts.length === 0) return [];
    if (!this.embeddings) throw new AiError("http", "this provider has no embeddings", null);
    try {
      const res = await this.client.embeddings.create({ model: this.embeddingModel, input: texts });
      const out = [...res.data].sort((a, b) => a.index - b.index).map((d) => d.embedding);
      if (out.length !== texts.length) throw new AiError("malformed", "embedding count mismatch");
      return out;
    } catch (err) {
      throw mapError(err);
    }
  }
}
