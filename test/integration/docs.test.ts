import { describe, expect, it } from "vitest";
import committed from "../../openapi.json";
import { call } from "../helpers/http";
import { tidings } from "../fixtures/alerts/corpora";
import { referenceJson, TIDINGS_ABSENT } from "../fixtures/tidings";

// Tidings' openapi.json (../shared/reference/tidings; skipped, in one line, where absent).
const reference = tidings();

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

  it("uses the reference operation ids wherever the reference has the same route", async ({ skip }) => {
    skip(!reference, TIDINGS_ABSENT);
    const ours = operations((await call("/openapi.json")).body as Doc);
    const refOps = new Map(
      operations(referenceJson<Doc>(reference, "openapi.json")).map((o) => [o.key, o.operationId]),
    );
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

  it("both pages load their viewer from this origin only: no CDN, and a policy that holds it", async () => {
    const want = {
      "/docs": ["/_docs/swagger-ui/swagger-ui-bundle.js", "/_docs/swagger-ui/swagger-ui.css"],
      "/redoc": ["/_docs/redoc/redoc.standalone.js"],
    };
    for (const [path, assets] of Object.entries(want)) {
      const html = (await call(path)).text;
      const scripts = [...html.matchAll(/<script[^>]*\ssrc="([^"]*)"/g)].map((m) => m[1]);
      const styles = [...html.matchAll(/<link[^>]*\shref="([^"]*)"/g)].map((m) => m[1]);
      expect([...scripts, ...styles].sort(), path).toEqual([...assets].sort());
      // No absolute URL anywhere in a src/href, nor an @import/url() to another host.
      expect(html, path).not.toMatch(/(src|href)="(https?:)?\/\//i);
      expect(html, path).not.toMatch(/url\(\s*["']?(https?:)?\/\//i);
      expect(html, path).not.toMatch(/cdn|jsdelivr|unpkg|fonts\.googleapis/i);
      const csp = html.match(/<meta http-equiv="Content-Security-Policy" content="([^"]*)">/)?.[1];
      expect(csp, path).toBeTruthy();
      for (const directive of ["default-src 'self'", "connect-src 'self'", "img-src 'self' data:"])
        expect(csp, path).toContain(directive);
      expect(csp, path).not.toMatch(/https?:|\*/);
    }
  });

  it("both pages carry the offline reader, drawn when the viewer cannot load or start", async () => {
    const pages: [string, string][] = [
      ["/docs", "SwaggerUIBundle"],
      ["/redoc", "Redoc"],
    ];
    for (const [path, global] of pages) {
      const res = await call(path);
      expect(res.headers.get("content-type"), path).toMatch(/text\/html/);
      expect(res.text, path).toContain('<main id="offline" hidden></main>');
      expect(res.text, path).toContain("window.fjOffline = function (specUrl)");
      // The viewer's script: its load error draws the reader; once loaded, fjStart checks that the
      // viewer is really there (a missing asset may be answered with the dashboard's index.html).
      const tag = res.text.match(/<script src="\/_docs\/[^"]*"[^>]*>/)?.[0] ?? "";
      expect(tag, path).toContain('onerror="fjOffline(&quot;/openapi.json&quot;)"');
      expect(tag, path).toContain('onload="fjStart()"');
      expect(res.text, path).toContain(`if (!window.${global}) return false;`);
      expect(res.text, path).toMatch(/if \(!ok\) fjOffline\("\/openapi\.json"\)/);
      // Being offline is no reason for the reader any more: the viewer comes from this server.
      expect(res.text, path).not.toContain("navigator.onLine");
    }
  });

  it("Swagger UI asks no outside validator and shows no URL bar", async () => {
    const html = (await call("/docs")).text;
    expect(html).toContain("validatorUrl: null");
    expect(html).toContain('layout: "BaseLayout"');
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
