// The contract check inside call() (test/helpers/response-contract.ts) really checks: a body that
// breaks the published schema, an undeclared status and a wrong media type each throw; every
// operation of the registry has a zod schema for each JSON 2xx it declares.
import { describe, expect, it } from "vitest";
import { createApp } from "../../src/app";
import { checkResponse } from "../helpers/response-contract";

const app = createApp();
const json = new Headers({ "content-type": "application/json" });
const url = (p: string) => new URL(`http://localhost${p}`);

describe("the response contract of call()", () => {
  it("throws on a 2xx body that breaks the operation's schema, naming the field", () => {
    const ok = {
      status: 200,
      headers: json,
      text: JSON.stringify({ month: "2026-03", count: 0, transactions: [] }),
    };
    expect(() => checkResponse(app, "GET", url("/api/v1/transactions?month=2026-03"), ok)).not.toThrow();
    const bad = { ...ok, text: JSON.stringify({ month: "2026-03", count: "zero", transactions: [] }) };
    expect(() => checkResponse(app, "GET", url("/api/v1/transactions"), bad)).toThrow(/count/);
  });

  it("throws on a field the schema does not publish, naming its path", () => {
    const extra = {
      status: 200,
      headers: json,
      text: JSON.stringify({ month: "2026-03", count: 0, transactions: [], secret_debug: 1 }),
    };
    expect(() => checkResponse(app, "GET", url("/api/v1/transactions"), extra)).toThrow(/secret_debug/);
  });

  it("prefers a literal path over a templated one", () => {
    const bad = { status: 200, headers: json, text: JSON.stringify({ nope: true }) };
    // /transactions/search is its own operation, not GET /transactions/{tx_id}.
    expect(() => checkResponse(app, "GET", url("/api/v1/transactions/search"), bad)).toThrow(
      /GET \/api\/v1\/transactions\/search's/,
    );
  });

  it("throws on an undeclared 2xx status and on an undeclared media type", () => {
    const body = JSON.stringify({ month: "2026-03", count: 0, transactions: [] });
    expect(() =>
      checkResponse(app, "GET", url("/api/v1/transactions"), { status: 206, headers: json, text: body }),
    ).toThrow(/declares only 200/);
    const html = new Headers({ "content-type": "text/html" });
    expect(() =>
      checkResponse(app, "GET", url("/api/v1/transactions"), { status: 200, headers: html, text: body }),
    ).toThrow(/content-type "text\/html"/);
    expect(() =>
      checkResponse(app, "GET", url("/api/v1/no-such-thing"), { status: 200, headers: json, text: "{}" }),
    ).toThrow(/no operation declares it/);
  });

  it("every declared JSON 2xx of every operation carries a zod schema to check against", () => {
    const defs = app.registry.definitions as unknown as {
      type?: string;
      route?: {
        method: string;
        path: string;
        responses?: Record<string, { content?: Record<string, { schema?: any }> }>;
      };
    }[];
    const missing: string[] = [];
    let checked = 0;
    for (const d of defs) {
      if (d.type !== "route" || !d.route) continue;
      for (const [status, r] of Object.entries(d.route.responses ?? {})) {
        if (!status.startsWith("2")) continue;
        const schema = r.content?.["application/json"]?.schema;
        if (!r.content?.["application/json"]) continue;
        checked++;
        if (typeof schema?.safeParse !== "function")
          missing.push(`${d.route.method} ${d.route.path} ${status}`);
      }
    }
    expect(missing).toEqual([]);
    expect(checked).toBeGreaterThan(100);
  });
});
