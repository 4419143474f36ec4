// /llms.txt names only routes that exist: its list is generated from the served OpenAPI document.
import { describe, expect, it } from "vitest";
import { call } from "../helpers/http";

type Doc = { paths: Record<string, Record<string, { summary?: string }>> };

describe("GET /llms.txt", () => {
  it("lists every operation of the OpenAPI document, once, with its summary", async () => {
    const doc = (await call("/openapi.json")).body as Doc;
    const text = (await call("/llms.txt")).text;
    let n = 0;
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(item)) {
        if (!["get", "post", "put", "patch", "delete"].includes(method)) continue;
        n++;
        const line = `- ${method.toUpperCase().padEnd(6)} ${path} — ${op.summary}`;
        expect(
          text.split("\n").filter((l) => l === line),
          line,
        ).toHaveLength(1);
      }
    }
    expect(n).toBeGreaterThan(50);
  });

  it("every /api/v1 path it mentions is a route of the document", async () => {
    const doc = (await call("/openapi.json")).body as Doc;
    const text = (await call("/llms.txt")).text;
    const known = new Set(Object.keys(doc.paths));
    const mentioned = [...text.matchAll(/\/api\/v1\/[\w\-/{}]*[\w}]/g)].map((m) => m[0]);
    expect(mentioned.length).toBeGreaterThan(50);
    for (const p of mentioned) expect(known.has(p), p).toBe(true);
  });

  it("groups routes under their tag and keeps the orientation prose", async () => {
    const res = await call("/llms.txt", { origin: "http://localhost:8787" });
    expect(res.headers.get("content-type")).toMatch(/text\/plain/);
    expect(res.text).toContain("### system: First run");
    expect(res.text).toContain("http://localhost:8787/openapi.json");
    expect(res.text).toMatch(/X-Activity-Id/);
  });
});
