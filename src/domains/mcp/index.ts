/**
 * POST /mcp: the journal as MCP tools (Streamable HTTP, stateless, JSON responses). A server and
 * a transport per request; the caller is the bearer token `authenticate` resolved (/mcp is
 * token-only). GET (a server-initiated SSE stream) and DELETE (ending a session) have nothing to
 * serve without sessions: 405, as the transport's stateless mode allows.
 */
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { Hono } from "hono";
import { isDemo } from "../../env";
import { doorCtx } from "../activity/journal";
import { loadSettings } from "../config/service";
import { type AppContext, type AppEnv, serviceCtx } from "../../http/context";
import { ApiError, envelope } from "../../http/errors";
import { refuseWriteTool } from "./scope";
import { buildServer } from "./server";

const MAX_BODY_BYTES = 1_000_000;

async function handle(c: AppContext): Promise<Response> {
  const principal = c.get("principal");
  const demo = isDemo(c.env);
  // authenticate already refuses /mcp without a token; this keeps it so if that ever changes.
  if (!demo && principal.kind !== "token" && principal.kind !== "oauth")
    throw new ApiError(401, "Send `Authorization: Bearer fin_...`");
  // The owner's read-only switch (stored demo_mode) holds here as on the API (src/http/demo.ts).
  const readOnly = demo || (await loadSettings(c)).demo_mode;
  const canWrite = !readOnly && principal.scope === "read+write";
  if (!canWrite) {
    const refused = await refuseWriteTool(c.req.raw, readOnly, MAX_BODY_BYTES, principal.kind === "oauth");
    if (refused) return refused;
  }
  const ctx = serviceCtx(c);
  const door = (operationId: string) =>
    doorCtx(c.env, ctx.clock, { principal, operationId, method: "POST", path: "/mcp" }, ctx.waitUntil);
  const server = buildServer({ ctx, canWrite, door }, c.env.APP_VERSION ?? "0.0.0");
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
    maxRequestBodySize: MAX_BODY_BYTES,
  });
  await server.connect(transport);
  try {
    return await transport.handleRequest(c.req.raw);
  } finally {
    await server.close();
  }
}

const notAllowed = (c: AppContext) => {
  c.header("Allow", "POST");
  return c.json(envelope(405, "This MCP endpoint is stateless: send JSON-RPC with POST"), 405);
};

/** Mounted at /mcp by app.ts. */
export function mcpRouter() {
  const router = new Hono<AppEnv>();
  router.post("/", handle);
  router.get("/", notAllowed);
  router.delete("/", notAllowed);
  return router;
}
