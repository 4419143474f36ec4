/**
 * A write tool called with a token that may not write: the server does not list the tool for that
 * caller (so the SDK alone would answer "Tool … not found"). This answers the call instead as a
 * tool error carrying the API's 403 envelope in words, before the request reaches the server.
 */
import { ApiError } from "../../lib/errors";
import { toolError } from "./tools/define";

/** The write tools' names (tools/write.ts registers exactly these; the MCP test checks both agree). */
export const WRITE_TOOL_NAMES: ReadonlySet<string> = new Set([
  "add_transaction",
  "resolve_parse_failure",
  "set_category",
  "set_comment",
]);

/** The JSON-RPC answer refusing a write tool, or null when the request is anything else. */
export async function refuseWriteTool(
  req: Request,
  demo: boolean,
  maxBytes: number,
  viaApp = false,
): Promise<Response | null> {
  const length = Number(req.headers.get("content-length") ?? "0");
  if (length > maxBytes) return null;
  let msg: unknown;
  try {
    msg = JSON.parse(await req.clone().text());
  } catch {
    return null; // not JSON: the transport answers with its own parse error
  }
  if (!msg || typeof msg !== "object" || Array.isArray(msg)) return null;
  const { method, id, params } = msg as { method?: unknown; id?: unknown; params?: { name?: unknown } };
  const name = params?.name;
  if (method !== "tools/call" || typeof name !== "string" || !WRITE_TOOL_NAMES.has(name)) return null;
  if (typeof id !== "string" && typeof id !== "number") return null;
  const why = demo
    ? `${name} writes, and this is the read-only demo`
    : viaApp
      ? `This app may only read your journal: to let it call ${name}, connect it again and choose "read and change your journal"`
      : `A read token may not call ${name}: issue a read+write token to let an assistant write`;
  const result = toolError(new ApiError(403, why));
  return Response.json({ jsonrpc: "2.0", id, result });
}
