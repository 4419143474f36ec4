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

/** A provider failure in words a person can act on (job statuses, error envelopes). */
export function aiErrorWords(err: AiError): string {
  if (err.kind === "http") {
    if (err.status === 401 || err.status === 403)
      return "the model API refused the key (check MODEL_API_KEY, or MODEL_BRIDGE_TOKEN for a local tool)";
    if (err.status === 400 || err.status === 404)
      return "the provider does not know the chosen model (or the bridge does not allow it): check the model under Settings → Intelligence";
    if (err.status === 429) return "the provider is limiting requests; try again later";
    return `the provider answered with an error (HTTP ${err.status ?? "?"})`;
  }
  if (err.kind === "network") return "the provider could not be reached";
  if (err.kind === "timeout") return "the provider did not answer in time";
  if (err.kind === "refusal") return "the model refused the request";
  return "the model's answer could not be used";
}
