/**
 * /llms.txt: plain-text orientation for agents. The route list is generated from the app's own
 * OpenAPI document, so it names only routes that exist (a hand-kept list drifts).
 */

const METHODS = ["get", "post", "put", "patch", "delete"] as const;

/** The parts of an OpenAPI 3.1 document the route list reads. */
export interface OpenApiLike {
  tags?: { name: string; description?: string }[];
  paths?: Record<string, Partial<Record<string, { summary?: string; tags?: string[] }>>>;
}

/** One line per operation, grouped by tag in the document's tag order. */
function routeList(doc: OpenApiLike): string {
  const groups = new Map<string, string[]>();
  for (const t of doc.tags ?? []) groups.set(t.name, []);
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      const tag = op.tags?.[0] ?? "other";
      const line = `- ${method.toUpperCase().padEnd(6)} ${path}${op.summary ? ` — ${op.summary}` : ""}`;
      groups.set(tag, [...(groups.get(tag) ?? []), line]);
    }
  }
  const described = new Map((doc.tags ?? []).map((t) => [t.name, t.description]));
  return [...groups]
    .filter(([, lines]) => lines.length > 0)
    .map(
      ([tag, lines]) =>
        `### ${tag}${described.get(tag) ? `: ${described.get(tag)}` : ""}\n${lines.join("\n")}`,
    )
    .join("\n\n");
}

export function llmsTxt(baseUrl: string, version: string, doc: OpenApiLike): string {
  return `# Finance Journal (v${version})

> A private, single-user spending journal. Bank transaction-alert emails and statement PDFs
> become categorized transactions, served with budgets, receipts, a tax pack and AI-written
> narratives through a JSON API under ${baseUrl}/api/v1/.

## Auth
- Agents and scripts: header \`Authorization: Bearer fin_...\` (issue a token with
  \`npm run token -- issue --label NAME [--scope read|read+write]\`). A \`read\` token may only GET.
- Browsers: \`POST /api/v1/auth/login\` sets the \`app_session\` cookie once a password is set.
- Until a password is set, callers on this machine (loopback) are trusted (trust on first use).
- Public: /api/v1/health, /openapi.json, /docs, /redoc, /llms.txt.
- AI assistants: \`POST /mcp\` is an MCP server (Streamable HTTP) with the journal as tools; bearer token only, a \`read\` token gets the read tools.

## Errors
Every 4xx/5xx body is {"error": "words", "code": "SCREAMING_SNAKE", "details": {...} | null}.
Validation problems are 422 VALIDATION_ERROR with details.errors = [{loc, msg, type}, ...].
401 UNAUTHORIZED, 403 FORBIDDEN (scope), 404 NOT_FOUND, 409 CONFLICT / stale_revert,
405 on any write to the read-only demo.

## Conventions
Money amounts are JSON numbers; timestamps ISO 8601; months YYYY-MM. Transaction ids (tx_id)
are opaque and URL-safe. Every write is journaled: GET /api/v1/activity lists the entries, and a
reversible write answers with an \`X-Activity-Id\` header naming the entry
\`POST /api/v1/activity/{entry_id}/revert\` undoes.

## Routes
The full, machine-readable schema is ${baseUrl}/openapi.json (browsable: ${baseUrl}/docs).

${routeList(doc)}
`;
}
