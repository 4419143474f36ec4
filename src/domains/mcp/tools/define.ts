/**
 * Registering a tool: input and output zod schemas, one result shape, and every thrown error as a
 * tool error carrying the API envelope (`{error, code, details}`) so a model reads the same words.
 */
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import type { ServiceCtx } from "../../../lib/context";
import { ApiError, DomainError, issuesFromZod, validationError } from "../../../lib/errors";
import { log } from "../../../lib/log";
import type { ToolContext } from "../context";

interface ToolDef<I extends z.ZodObject, O extends z.ZodObject> {
  name: string;
  title: string;
  description: string;
  input: I;
  output: O;
  /** A write: listed only for read+write tokens, annotated as such. */
  write?: boolean;
  run(args: z.output<I>): Promise<z.input<O>>;
}

/** What a tool error says: a domain failure and a door's error keep their code and words. */
function toEnvelopeError(err: unknown): ApiError | DomainError {
  if (err instanceof ApiError || err instanceof DomainError) return err;
  if (err instanceof z.ZodError) return validationError(issuesFromZod(err));
  log("error", "mcp.tool_failed", { error: String(err) });
  return new ApiError(500, "Internal server error");
}

export function toolError(err: unknown): CallToolResult {
  const e = toEnvelopeError(err);
  const envelope = { error: e.message, code: e.code, details: e.details };
  return { content: [{ type: "text", text: JSON.stringify(envelope) }], isError: true };
}

/**
 * A write tool's run: a context of its own whose entries are journaled under `mcp.<name>` (in the
 * verbs' batches; the rest before the tool answers), dropped when the tool fails.
 */
export function journaled<A, R>(
  tc: ToolContext,
  name: string,
  run: (args: A, ctx: ServiceCtx) => Promise<R>,
): (args: A) => Promise<R> {
  return async (args) => {
    const { ctx, ledger } = tc.door(`mcp.${name}`);
    let ok = false;
    try {
      const out = await run(args, ctx);
      ok = true;
      return out;
    } finally {
      await ledger.settle(ok);
    }
  };
}

export function register<I extends z.ZodObject, O extends z.ZodObject>(
  server: McpServer,
  def: ToolDef<I, O>,
) {
  const handler = async (args: z.output<I>): Promise<CallToolResult> => {
    try {
      const data = (await def.run(args)) as Record<string, unknown>;
      return { content: [{ type: "text", text: JSON.stringify(data) }], structuredContent: data };
    } catch (err) {
      return toolError(err);
    }
  };
  server.registerTool(
    def.name,
    {
      title: def.title,
      description: def.description,
      inputSchema: def.input,
      outputSchema: def.output,
      annotations: {
        readOnlyHint: !def.write,
        destructiveHint: false,
        openWorldHint: false,
      },
    },
    handler as never,
  );
}
