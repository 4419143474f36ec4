/**
 * The one model interface every AI feature uses: a forced tool call, plain text generation and
 * embeddings. Implementations throw `AiError`, never anything else, so callers can tell a hard
 * provider failure (HTTP, timeout, network) from a soft one (refusal, no tool call, bad JSON).
 */

/** A function tool the model is forced to call; `parameters` is a JSON Schema object. */
export interface ToolSpec {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

/** A piece of a multimodal user message (receipts: a photo or a scanned PDF). */
export type ContentPart =
  | { type: "text"; text: string }
  | { type: "image"; dataUrl: string }
  | { type: "file"; filename: string; dataUrl: string };

export interface ToolCallRequest {
  system: string;
  user: string;
  /** When set, the user message is these parts instead of `user` (text-only providers refuse). */
  parts?: ContentPart[];
  tool: ToolSpec;
  /** Per-call timeout; the provider's default applies when absent. */
  timeoutMs?: number;
}

export interface TextRequest {
  system: string;
  user: string;
  maxTokens?: number;
  timeoutMs?: number;
  /** Reasoning effort for models that take one (sent only when set). */
  effort?: string | null;
  /** Aborts the request (a job past its time limit). */
  signal?: AbortSignal;
}

export type AiErrorKind = "http" | "timeout" | "network" | "refusal" | "no_tool_call" | "malformed";

const HARD_KINDS = new Set<AiErrorKind>(["http", "timeout", "network"]);

export class AiError extends Error {
  constructor(
    readonly kind: AiErrorKind,
    message: string,
    readonly status: number | null = null,
  ) {
    super(message);
    this.name = "AiError";
  }

  /** Transport-level failures: a run of these marks AI categorization degraded. */
  get hard(): boolean {
    return HARD_KINDS.has(this.kind);
  }
}

export function asAiError(err: unknown): AiError {
  if (err instanceof AiError) return err;
  return new AiError("network", err instanceof Error ? err.message : String(err));
}

export interface AiProvider {
  /** The chat model's name, stamped into audits. */
  readonly model: string;
  /** Forces a call of `req.tool`; resolves to its parsed JSON arguments. */
  callTool(req: ToolCallRequest): Promise<Record<string, unknown>>;
  generateText(req: TextRequest): Promise<string>;
  /** One vector per input, in order. */
  embed(texts: string[]): Promise<number[][]>;
  /** The embedding model's name (embedding caches are keyed by it). */
  readonly embeddingModel: string;
}
