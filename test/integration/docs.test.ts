import { describe, expect, it } from "vitest";
import committed from "../../openapi.json";
import reference from "../fixtures/reference-openapi.json";
import { call } from "../helpers/http";

type Doc = {
  openapi: string;
  paths: Record<string, Record<string, { operationId?: string; tags?: string[] }>>;
};
const METHODS = ["get", "put", "post", "delete", "patch"];

function operations(doc: Doc) {
  const out: { key: string; path: string; method: string; operationId?: string; tags?: string[] }[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      if (!METHODS.includes(method)) continue;
      // Path parameter names differ between implementations; compare shapes.
      const shape = path.replace(/\{[^}]+\}/g, "{}");
      out.push({ key: `${method} ${shape}`, path, method, operationId: op.operationId, tags: op.tags });
    }
  }
  return out;
}

describe("OpenAPI document and docs", () => {
  it("serves OpenAPI 3.1 with a tag and an operation id on every operation", async () => {
    const res = await call("/openapi.json");
    expect(res.status).toBe(200);
    const doc = res.body as Doc;
    expect(doc.openapi).toMatch(/^3\.1/);
    const ops = operations(doc);
    expect(ops.length).toBeGreaterThan(1);
    for (const op of ops) {
      expect(op.operationId, op.key).toBeTruthy();
      expect(op.tags?.length, op.key).toBe(1);
    }
  });

  it("uses the reference operation ids wherever the reference has the same route", async () => {
    const ours = operations((await call("/openapi.json")).body as Doc);
    const refOps = new Map(operations(reference as unknown as Doc).map((o) => [o.key, o.operationId]));
    let compared = 0;
    for (const op of ours) {
      const want = refOps.get(op.key);
      if (!want) continue;
      compared++;
      expect(op.operationId, op.key).toBe(want);
    }
    expect(compared).toBeGreaterThan(1);
  });

  it("drift gate: the served schema equals the committed openapi.json (run `npm run openapi`)", async () => {
    const served = (await call("/openapi.json")).body;
    expect(served).toEqual(committed);
  });

  it("serves Swagger UI at /docs and ReDoc at /redoc", async () => {
    const docs = await call("/docs");
    expect(docs.status).toBe(200);
    expect(docs.text).toMatch(/swagger/i);
    const redoc = await call("/redoc");
    expect(redoc.status).toBe(200);
    expect(redoc.text).toMatch(/redoc/i);
  });

  it("both pages carry the offline reader, drawn when the viewer's script cannot load", async () => {
    for (const path of ["/docs", "/redoc"]) {
      const res = await call(path);
      expect(res.headers.get("content-type"), path).toMatch(/text\/html/);
      expect(res.text, path).toContain('<main id="offline" hidden></main>');
      expect(res.text, path).toContain("window.fjOffline = function (specUrl)");
      // Every external script has the fallback on error, and a timer covers a hanging CDN.
      const external = [...res.text.matchAll(/<script src="https:[^>]*>/g)].map((m) => m[0]);
      expect(external.length, path).toBeGreaterThan(0);
      for (const tag of external) expect(tag).toContain('onerror="fjOffline(&quot;/openapi.json&quot;)"');
      expect(res.text, path).toMatch(
        /setTimeout\(function \(\) \{ if \(!\(window\.\w+\)\) fjOffline\("\/openapi\.json"\)/,
      );
      expect(res.text, path).not.toMatch(/fonts\.googleapis/);
    }
  });

  it("serves /llms.txt as plain text orientation", async () => {
    const res = await call("/llms.txt");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/text\/plain/);
    expect(res.text).toMatch(/Authorization: Bearer fin_/);
    expect(res.text).toMatch(/\/api\/v1\/health/);
    expect(res.text).toMatch(/VALIDATION_ERROR/);
  });
});
