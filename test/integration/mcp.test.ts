/**
 * The MCP endpoint driven by the official MCP client over HTTP: the client's transport is given a
 * fetch that sends each request through the Worker's app in-process (real bindings), like call().
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createApp } from "../../src/app";
import { attentionQueue } from "../../src/db/schema";
import { getDb } from "../../src/db";
import type { Env } from "../../src/env";
import { ingestEmail } from "../../src/ingest";
import { bearer, resetState, seedToken } from "../helpers/auth";
import { call, expectEnvelope } from "../helpers/http";
import { clearTransactions, seedTx } from "../helpers/seed";
import { WRITE_TOOL_NAMES } from "../../src/domains/mcp/scope";
import { buildMime } from "../fixtures/emails/builders";
import { resetIngestTables, testDeps } from "../fixtures/emails/deps";
import cibcAlert from "../fixtures/emails/multipart-qp-cibc.eml?raw";

const READ_TOOLS = [
  "get_budget_status",
  "get_income_statement",
  "get_journal",
  "get_merchants",
  "get_summary",
  "get_transaction",
  "list_attention",
  "list_parse_failures",
  "search_transactions",
];
const WRITE_TOOLS = ["add_transaction", "resolve_parse_failure", "set_category", "set_comment"];
// The names the scope check refuses for read tokens are exactly the write tools the server registers.
it("the scope check knows every write tool", () => expect([...WRITE_TOOL_NAMES].sort()).toEqual(WRITE_TOOLS));

/** A fetch that answers from the app, finishing its waitUntil work (ledger inserts) before returning. */
function appFetch(overrides: Partial<Env> = {}) {
  return async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const req = new Request(input, init);
    const ctx = createExecutionContext();
    const res = await createApp().fetch(req, { ...env, ...overrides } as Env, ctx);
    const text = await res.text();
    await waitOnExecutionContext(ctx);
    return new Response(text || null, { status: res.status, headers: res.headers });
  };
}

async function connect(token: string, overrides: Partial<Env> = {}): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(new URL("http://localhost/mcp"), {
    fetch: appFetch(overrides),
    requestInit: { headers: bearer(token) },
  });
  const client = new Client({ name: "mcp-test", version: "1.0.0" });
  await client.connect(transport);
  // Listing caches each tool's published outputSchema: from then on the client checks every
  // structuredContent against it (the server checks it too), so a broken shape fails the call.
  await client.listTools();
  return client;
}

const structured = (r: Awaited<ReturnType<Client["callTool"]>>) => {
  if (r.isError) throw new Error(`tool error: ${JSON.stringify(r.content)}`);
  return r.structuredContent as Record<string, any>;
};
const errorOf = (r: Awaited<ReturnType<Client["callTool"]>>) => {
  expect(r.isError).toBe(true);
  return (r.content as { type: string; text: string }[])[0]!.text;
};

let readToken: string;
let writeToken: string;
let writeTokenId: string;
let txId: string;

beforeAll(async () => {
  await resetState();
  readToken = (await seedToken("read")).token;
  const rw = await seedToken("read+write");
  writeToken = rw.token;
  writeTokenId = rw.id;
});

beforeEach(async () => {
  await clearTransactions();
  await resetIngestTables();
  await env.DB.prepare("DELETE FROM overrides").run();
  await env.DB.prepare("DELETE FROM activity_log").run();
  txId = await seedTx({ DateFileName: "2024.10.03_09.00_a.eml", Company: "Blue Bottle", Amount: 12.5 });
  await seedTx({
    DateFileName: "2024.10.05_18.30_b.eml",
    Company: "Save-On-Foods",
    Category: "groceries",
    Amount: 64.19,
  });
  await getDb(env.DB).insert(attentionQueue).values({
    ForwardedTo: "me@example.com",
    DateFileName: "2024.10.05_18.30_b.eml",
    reason: "ai_rescue",
    created_at: "2024-10-05T18:30:00Z",
  });
});

describe("MCP endpoint: auth and listing", () => {
  it("answers 401 in the envelope without a token or with a bad one, even where TOFU would let a browser in", async () => {
    const init = { method: "initialize", params: {}, jsonrpc: "2.0", id: 1 };
    expectEnvelope(await call("/mcp", { method: "POST", body: init }), 401, "UNAUTHORIZED");
    const bad = await call("/mcp", { method: "POST", body: init, headers: bearer("fin_not_a_token") });
    expectEnvelope(bad, 401, "UNAUTHORIZED");
    await expect(connect("fin_nope")).rejects.toThrow();
  });

  it("a read token lists only the read tools; read+write lists all of them", async () => {
    const read = await connect(readToken);
    const names = (await read.listTools()).tools.map((t) => t.name).sort();
    expect(names).toEqual(READ_TOOLS);
    const rw = await connect(writeToken);
    const all = (await rw.listTools()).tools;
    expect(all.map((t) => t.name).sort()).toEqual([...READ_TOOLS, ...WRITE_TOOLS].sort());
    for (const t of all) {
      expect(t.description?.length).toBeGreaterThan(40);
      expect(t.inputSchema.type).toBe("object");
      expect(t.outputSchema?.type).toBe("object");
      expect(t.annotations?.readOnlyHint).toBe(!WRITE_TOOLS.includes(t.name));
    }
  });

  it("stays out of the OpenAPI document (JSON-RPC, not a REST route)", async () => {
    const doc = await call("/openapi.json");
    expect(Object.keys(doc.body.paths)).not.toContain("/mcp");
    expect(Object.keys(doc.body.paths).length).toBeGreaterThan(20);
    expect((await call("/llms.txt")).text).toContain("POST /mcp");
  });

  it("GET and DELETE are 405 (stateless: no stream, no session)", async () => {
    const get = await call("/mcp", { headers: { ...bearer(readToken), accept: "text/event-stream" } });
    expectEnvelope(get, 405, "METHOD_NOT_ALLOWED");
    expectEnvelope(
      await call("/mcp", { method: "DELETE", headers: bearer(readToken) }),
      405,
      "METHOD_NOT_ALLOWED",
    );
  });
});

describe("MCP read tools answer what their routes answer", () => {
  const cases: [string, Record<string, unknown>, string][] = [
    ["get_summary", { month: "2024-10" }, "/api/v1/summary?month=2024-10"],
    ["get_journal", { month: "2024-10" }, "/api/v1/journal?month=2024-10"],
    [
      "search_transactions",
      { from: "2024-09", to: "2024-10", q: "blue" },
      "/api/v1/transactions/search?from=2024-09&to=2024-10&q=blue",
    ],
    ["get_budget_status", { year: 2024 }, "/api/v1/budget/status?year=2024"],
    [
      "get_merchants",
      { month: "2024-10", months: 3 },
      "/api/v1/merchants/intelligence?month=2024-10&months=3",
    ],
    ["get_income_statement", { year: 2024 }, "/api/v1/income-statement?year=2024"],
    ["list_attention", { month: "2024-10" }, "/api/v1/transactions/attention?month=2024-10"],
    ["list_parse_failures", {}, "/api/v1/parse-failures"],
  ];
  it.each(cases)("%s", async (name, args, path) => {
    const client = await connect(readToken);
    const route = await call(path, { headers: bearer(readToken) });
    expect(route.status).toBe(200);
    expect(structured(await client.callTool({ name, arguments: args }))).toEqual(route.body);
  });

  it("an emailed row (context without a budget target) keeps every tool's and route's schema", async () => {
    // The shape real alerts store: a month-to-date context whose category has no budget target.
    const raw = new Uint8Array([...cibcAlert].map((c) => c.charCodeAt(0) & 0xff));
    const out = await ingestEmail(raw, testDeps());
    if (out.status !== "created") throw new Error(`expected a transaction, got ${out.status}`);
    const month = `${out.tx.DateFileName.slice(0, 4)}-${out.tx.DateFileName.slice(5, 7)}`;
    const client = await connect(readToken);
    const search = structured(
      await client.callTool({
        name: "search_transactions",
        arguments: { from: month, to: month, q: "save-on" },
      }),
    );
    const row = search.transactions.find((t: any) => t.date_file_name === out.tx.DateFileName);
    expect(row.context).toEqual({
      category_month_total: expect.any(Number),
      merchant_month_count: 1,
      category_budget_target: null,
      category_budget_pct: null,
    });
    const journal = structured(await client.callTool({ name: "get_journal", arguments: { month } }));
    expect(journal).toEqual(
      (await call(`/api/v1/journal?month=${month}`, { headers: bearer(readToken) })).body,
    );
    const detail = structured(
      await client.callTool({ name: "get_transaction", arguments: { tx_id: row.tx_id } }),
    );
    expect(detail.transaction.context).toEqual(row.context);

    // A row stored before the optional fields were always written reads the same way (null, not missing).
    await env.DB.prepare("UPDATE transactions SET TransactionContext = ? WHERE DateFileName = ?")
      .bind(JSON.stringify({ category_month_total: 64.19, merchant_month_count: 1 }), out.tx.DateFileName)
      .run();
    const old = structured(
      await client.callTool({ name: "get_transaction", arguments: { tx_id: row.tx_id } }),
    );
    expect(old.transaction.context).toEqual({
      category_month_total: 64.19,
      merchant_month_count: 1,
      category_budget_target: null,
      category_budget_pct: null,
    });
    for (const path of [
      `/api/v1/transactions?month=${month}`,
      `/api/v1/transactions/search?from=${month}&to=${month}`,
      `/api/v1/transactions/attention?month=${month}`,
      `/api/v1/journal?month=${month}`,
      `/api/v1/transactions/${row.tx_id}/detail`,
    ]) {
      expect((await call(path, { headers: bearer(readToken) })).status).toBe(200); // call() checks the shape
    }
  });

  it("get_transaction, and the seeded rows are really there", async () => {
    const client = await connect(readToken);
    const got = structured(await client.callTool({ name: "get_transaction", arguments: { tx_id: txId } }));
    expect(got).toEqual(
      (await call(`/api/v1/transactions/${txId}/detail`, { headers: bearer(readToken) })).body,
    );
    expect(got.transaction.company).toBe("Blue Bottle");
    const attention = structured(
      await client.callTool({ name: "list_attention", arguments: { month: "2024-10" } }),
    );
    expect(attention.count).toBe(1);
  });

  it("bad input and service errors come back as tool errors, not crashes", async () => {
    const client = await connect(readToken);
    expect(errorOf(await client.callTool({ name: "get_summary", arguments: { month: "October" } }))).toMatch(
      /month/,
    );
    const missing = errorOf(await client.callTool({ name: "get_transaction", arguments: { tx_id: "nope" } }));
    expect(JSON.parse(missing)).toEqual({ error: "Transaction not found", code: "NOT_FOUND", details: null });
    const range = errorOf(
      await client.callTool({ name: "search_transactions", arguments: { from: "2020-01", to: "2024-10" } }),
    );
    expect(JSON.parse(range).code).toBe("VALIDATION_ERROR");
  });
});

describe("MCP write tools", () => {
  it("a read token is refused a write tool, and nothing changes", async () => {
    const client = await connect(readToken);
    const r = await client.callTool({ name: "set_comment", arguments: { tx_id: txId, comment: "hi" } });
    // Not listed for this token, yet called by name: a tool error in the API's words, nothing written.
    expect(JSON.parse(errorOf(r))).toEqual({
      error: "A read token may not call set_comment: issue a read+write token to let an assistant write",
      code: "FORBIDDEN",
      details: null,
    });
    const row = (await call(`/api/v1/transactions/${txId}/detail`, { headers: bearer(readToken) })).body;
    expect(row.transaction.comment).toBeNull();
  });

  it("a write tool in demo mode is refused in words too", async () => {
    const client = await connect(readToken, { DEMO_MODE: "true" } as Partial<Env>);
    const r = await client.callTool({ name: "add_transaction", arguments: {} });
    expect(JSON.parse(errorOf(r))).toMatchObject({ code: "FORBIDDEN", error: expect.stringMatching(/demo/) });
  });

  it("demo mode lists no write tools", async () => {
    const client = await connect(readToken, { DEMO_MODE: "true" } as Partial<Env>);
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names).not.toContain("set_category");
    expect(names).toContain("get_summary");
  });

  it("set_category as a rule: two ledger entries under the token, each undone by the revert route", async () => {
    const client = await connect(writeToken);
    const out = structured(
      await client.callTool({
        name: "set_category",
        arguments: { tx_id: txId, category: "Groceries", as_rule: true },
      }),
    );
    expect(out).toMatchObject({ tx_id: txId, old_category: "coffee & cafes", new_category: "groceries" });
    expect(out.rule).toMatchObject({ company: "Blue Bottle" });
    const detail = async () =>
      (await call(`/api/v1/transactions/${txId}/detail`, { headers: bearer(readToken) })).body.transaction;
    expect((await detail()).category).toBe("groceries");

    const ledger = await call("/api/v1/activity?operation=mcp.set_category", { headers: bearer(readToken) });
    const entries = ledger.body.entries as any[];
    expect(entries).toHaveLength(2);
    const txEntry = entries.find((e) => e.id === out.activity_id);
    expect(txEntry).toMatchObject({
      principal_kind: "token",
      principal_id: writeTokenId,
      method: "POST",
      path: "/mcp",
      resource_id: txId,
      reversible: true,
    });
    expect(entries.find((e) => e.id === out.rule.activity_id)).toMatchObject({
      resource_id: "Blue Bottle",
      reversible: true,
    });

    const revert = (id: string) =>
      call(`/api/v1/activity/${id}/revert`, { method: "POST", headers: bearer(writeToken) });
    expect((await revert(out.activity_id)).status).toBe(200);
    expect((await detail()).category).toBe("coffee & cafes");
    expect((await revert(out.rule.activity_id)).status).toBe(200);
    const overrides = (await call("/api/v1/overrides", { headers: bearer(readToken) })).body;
    expect(JSON.stringify(overrides)).not.toContain("Blue Bottle");
  });

  it("set_category as a rule on a row without a merchant writes nothing", async () => {
    const bare = await seedTx({ DateFileName: "2024.10.09_08.00_c.eml", Company: null });
    const client = await connect(writeToken);
    const r = await client.callTool({
      name: "set_category",
      arguments: { tx_id: bare, category: "groceries", as_rule: true },
    });
    expect(JSON.parse(errorOf(r))).toMatchObject({ code: "VALIDATION_ERROR" });
    const row = (await call(`/api/v1/transactions/${bare}/detail`, { headers: bearer(readToken) })).body;
    expect(row.transaction.category).toBe("coffee & cafes");
    const ledger = await call("/api/v1/activity?operation=mcp.set_category", { headers: bearer(readToken) });
    expect(ledger.body.entries.filter((e: any) => e.resource_id === bare)).toHaveLength(0);
  });

  it("set_comment mirrors PUT /comment and is undoable; an unknown category is a tool error", async () => {
    const client = await connect(writeToken);
    const out = structured(
      await client.callTool({ name: "set_comment", arguments: { tx_id: txId, comment: "team lunch" } }),
    );
    expect(out).toMatchObject({ tx_id: txId, comment: "team lunch" });
    const entry = (await call(`/api/v1/activity?operation=mcp.set_comment`, { headers: bearer(readToken) }))
      .body.entries[0];
    expect(entry).toMatchObject({ id: out.activity_id, reversible: true, resource_id: txId });
    const undo = await call(`/api/v1/activity/${entry.id}/revert`, {
      method: "POST",
      headers: bearer(writeToken),
    });
    expect(undo.status, undo.text).toBe(200);
    const row = (await call(`/api/v1/transactions/${txId}/detail`, { headers: bearer(readToken) })).body;
    expect(row.transaction.comment).toBeNull();

    const bad = errorOf(
      await client.callTool({ name: "set_category", arguments: { tx_id: txId, category: "spaceships" } }),
    );
    expect(JSON.parse(bad)).toMatchObject({ code: "VALIDATION_ERROR" });
  });

  it("add_transaction stores a manual row (journaled); a second identical one is refused unless allow_duplicate", async () => {
    const client = await connect(writeToken);
    const args = { date: "2024-10-07", amount: 4.5, company: "Corner Bakery", category: "Groceries" };
    const out = structured(await client.callTool({ name: "add_transaction", arguments: args }));
    expect(out).toMatchObject({ status: "created", category: "groceries" });
    const again = JSON.parse(errorOf(await client.callTool({ name: "add_transaction", arguments: args })));
    expect(again).toMatchObject({ code: "DUPLICATE_TRANSACTION", details: { tx_id: out.tx_id } });
    const anyway = structured(
      await client.callTool({ name: "add_transaction", arguments: { ...args, allow_duplicate: true } }),
    );
    expect(anyway).toMatchObject({ status: "created" });
    expect(anyway.tx_id).not.toBe(out.tx_id);
    const row = (await call(`/api/v1/transactions/${out.tx_id}/detail`, { headers: bearer(readToken) })).body;
    expect(row.transaction.amount).toBe(4.5);
    const entries = (
      await call(`/api/v1/activity?operation=mcp.add_transaction`, { headers: bearer(readToken) })
    ).body.entries;
    expect(entries.map((e: any) => e.id)).toContain(out.activity_id);
  });

  it("resolve_parse_failure creates the transaction of a quarantined email", async () => {
    const raw = buildMime({
      from: "alerts@tangerine.example",
      subject: "Transaction alert",
      messageId: "<mcp-1@example>",
      body: "A purchase of $23.75 was charged to your account at CORNER BAKERY.",
    });
    const q = await ingestEmail(raw, testDeps());
    if (q.status !== "quarantined") throw new Error(`expected quarantine, got ${q.status}`);
    const client = await connect(writeToken);
    const listed = structured(await client.callTool({ name: "list_parse_failures", arguments: {} }));
    expect(listed.failures.map((f: any) => f.id)).toContain(q.id);
    const args = { failure_id: q.id, date: "2024-10-08", amount: 23.75, company: "Corner Bakery" };
    const out = structured(await client.callTool({ name: "resolve_parse_failure", arguments: args }));
    expect(out).toMatchObject({ failure_id: q.id, status: "resolved" });
    const twice = errorOf(await client.callTool({ name: "resolve_parse_failure", arguments: args }));
    expect(JSON.parse(twice).code).toBe("CONFLICT");
  });
});
