/** One MCP server per request (stateless): the read tools for every caller, writes when allowed. */
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { ToolContext } from "./context";
import { registerReadTools } from "./tools/read";
import { registerWriteTools } from "./tools/write";

const INSTRUCTIONS =
  "A private spending journal (bank alerts become categorized transactions). Months are YYYY-MM, " +
  "amounts decimal currency units. Read tools answer questions about spending, budgets, merchants and " +
  "income; write tools (set_category, set_comment, add_transaction, resolve_parse_failure) appear only " +
  "for a read+write token, and every write is journaled and undoable. Errors carry the API's " +
  "`{error, code, details}` envelope.";

export function buildServer(tc: ToolContext, version: string): McpServer {
  const server = new McpServer({ name: "finance-journal", version }, { instructions: INSTRUCTIONS });
  registerReadTools(server, tc);
  if (tc.canWrite) registerWriteTools(server, tc);
  return server;
}
