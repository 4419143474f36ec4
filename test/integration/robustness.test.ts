import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { call } from "../helpers/http";
import { seedTx } from "../helpers/seed";

type Doc = { paths: Record<string, Record<string, unknown>> };
const METHODS = ["get", "put", "post", "patch", "delete"];

// Bad input gets the envelope with a 4xx, never a 500: every route of the app's own schema is
// called with junk path parameters, query strings and bodies.
describe("no route answers 500 to bad input", () => {
  // One row, so POST /setup/demo-data answers its 409 instead of sending the whole demo household
  // through the pipeline (first-run.test.ts covers that) on every junk call.
  beforeAll(async () => {
    await seedTx({ DateFileName: "2024.01.02_10.00_robust.eml", Company: "Robust Cafe", Amount: 4.5 });
  });

  it("junk path params, queries and bodies on every operation", async () => {
    const doc = (await call("/openapi.json")).body as Doc;
    const ops = Object.entries(doc.paths).flatMap(([path, item]) =>
      Object.keys(item)
        .filter((m) => METHODS.includes(m))
        .map((m) => ({ path, method: m.toUpperCase() })),
    );
    expect(ops.length).toBeGreaterThan(60);
    const junk = ["%00", "..%2F..", "x".repeat(300), "💥", "AAAA", "-1"];
    const bodies: (string | undefined)[] = [
      undefined,
      "{",
      "[]",
      "null",
      '{"a":1}',
      '"str"',
      '{"amount":"NaN"}',
    ];
    const failures: string[] = [];
    let i = 0;
    for (const op of ops) {
      // A GET or DELETE carries no body: its variants are the junk path values (every one where the
      // path has a parameter) and the two junk queries.
      const bodiless = op.method === "GET" || op.method === "DELETE";
      const variants = bodiless
        ? op.path.includes("{")
          ? junk.map(() => undefined)
          : [undefined, undefined]
        : bodies;
      for (const [k, body] of variants.entries()) {
        const p = op.path.replace(/\{[^}]+\}/g, () => junk[i++ % junk.length]!);
        const qs = k % 2 ? "?month=2024-99&limit=-5&from=zz&year=1e9" : "?months=abc&force=maybe";
        const res = await call(`${p}${qs}`, {
          method: op.method,
          rawBody: bodiless ? undefined : body,
          headers: { "content-type": "application/json" },
        });
        if (res.status >= 500)
          failures.push(`${op.method} ${p}${qs} body=${body} → ${res.status} ${res.text.slice(0, 120)}`);
        else if (res.status >= 400) expect(res.body, `${op.method} ${p}`).toHaveProperty("code");
      }
    }
    expect(failures).toEqual([]);
  }, 120_000);

  it("arbitrary JSON bodies to the write routes never give 500", async () => {
    const targets = [
      ["PUT", "/api/v1/config"],
      ["POST", "/api/v1/transactions"],
      ["PATCH", "/api/v1/transactions/bulk"],
      ["POST", "/api/v1/transactions/search-by-filter"],
      ["PUT", "/api/v1/budget/config"],
      ["POST", "/api/v1/categories"],
    ] as const;
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...targets), fc.jsonValue(), async ([method, path], value) => {
        const res = await call(path, { method, body: value });
        return res.status < 500;
      }),
      { numRuns: 150, seed: 7 },
    );
  }, 120_000);
});
