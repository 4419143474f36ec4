/** /llms.txt: plain-text orientation for agents. */
export function llmsTxt(baseUrl: string, version: string): string {
  return `# Finance Journal (v${version})

> A private, single-user spending journal. Bank transaction-alert emails and statement PDFs
> become categorized transactions, served with budgets, receipts, a tax pack and AI-written
> narratives through a JSON API under ${baseUrl}/api/v1/.

## Auth
- Agents and scripts: header \`Authorization: Bearer fin_...\` (issue a token with
  \`npm run token -- issue --label NAME [--scope read|read+write]\`). A \`read\` token may only GET.
- Browsers: \`POST /api/v1/auth/login\` sets the \`app_session\` cookie once a password is set.
- Until a password is set, anonymous callers are trusted (trust on first use).
- Public: /api/v1/health, /openapi.json, /docs, /redoc, /llms.txt.

## Main routes
- GET  /api/v1/health                      status ok | degraded | stale, with reasons
- GET  /api/v1/config, PUT /api/v1/config  runtime settings (partial update)
- GET  /api/v1/transactions?month=YYYY-MM  a month of transactions
- GET  /api/v1/transactions/search         company, category, institution, type, months, amounts
- GET  /api/v1/summary?month=YYYY-MM       totals, breakdowns, month-over-month, pace
- GET  /api/v1/journal?month=YYYY-MM       days newest first with running totals
- POST /api/v1/transactions/upload-eml     ingest one raw .eml (multipart field "file")
- GET  /api/v1/activity                    the write ledger; POST /api/v1/activity/{id}/revert undoes
- GET  /api/v1/whoami                      who the API thinks you are
- POST /mcp                                MCP server (Streamable HTTP): the journal as tools; bearer token only, a read token gets read tools

The full, machine-readable schema is ${baseUrl}/openapi.json (interactive: ${baseUrl}/docs).

## Errors
Every 4xx/5xx body is {"error": "words", "code": "SCREAMING_SNAKE", "details": {...} | null}.
Validation problems are 422 VALIDATION_ERROR with details.errors = [{loc, msg, type}, ...].
401 UNAUTHORIZED, 403 FORBIDDEN (scope), 404 NOT_FOUND, 409 CONFLICT / stale_revert,
405 on any write to the read-only demo.

## Conventions
Money amounts are JSON numbers; timestamps ISO 8601; months YYYY-MM. Transaction ids (tx_id)
are opaque and URL-safe.
`;
}
