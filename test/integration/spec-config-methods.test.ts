// Issue 23 point 5, each test named by the SPEC.md rule it holds:
// - AppConfigUpdateRequest: every field optional; `demo_mode` and `storage` writable; the
//   availability flags and vendor_oauth_* response-only (so a GET body sent back is not a 422).
// - Errors: a wrong method on a known path is 405 with Allow, not 404.
// - Parse failures: the list honours `limit` (reference: default 100, 1..10000).
import { env } from "cloudflare:test";
import { beforeEach, describe, expect, it } from "vitest";
import { bearer, resetState, seedToken } from "../helpers/auth";
import { call, expectEnvelope } from "../helpers/http";

const put = (body: unknown, headers: Record<string, string> = {}) =>
  call("/api/v1/config", { method: "PUT", body, headers });

beforeEach(resetState);

describe("SPEC AppConfigUpdateRequest: PUT /config takes its own GET body", () => {
  it("the whole GET body comes back as 200; response-only and unknown keys are named, not refused", async () => {
    const got = await call("/api/v1/config");
    expect(got.status).toBe(200);
    const res = await put({ ...got.body, timezone: "America/Toronto", not_a_setting: 1 });
    expect(res.status).toBe(200);
    expect(res.body.timezone).toBe("America/Toronto");
    const ignored = (res.headers.get("x-config-ignored") ?? "").split(/,\s*/).sort();
    expect(ignored).toEqual(
      [
        "cli_a_available",
        "cli_b_available",
        "cli_c_available",
        "cloud_available",
        "hosted_enabled",
        "not_a_setting",
        "read_only_switch",
        "vendor_oauth_connected",
        "vendor_oauth_email",
      ].sort(),
    );
    // A response-only value sent back changes nothing.
    const flipped = await put({ hosted_enabled: !got.body.hosted_enabled });
    expect(flipped.status).toBe(200);
    expect(flipped.body.hosted_enabled).toBe(got.body.hosted_enabled);
    // Invalid values of real settings are still 422.
    expectEnvelope(await put({ ...got.body, timezone: "Mars/Olympus_Mons" }), 422, "VALIDATION_ERROR");
  });

  it("storage is writable: accepted, and named as changing nothing when it is not D1", async () => {
    const same = await put({ storage: "d1" });
    expect(same.status).toBe(200);
    expect(same.headers.get("x-config-ignored")).toBeNull();
    const other = await put({ storage: "sqlite" });
    expect(other.status).toBe(200);
    expect(other.body.storage).toBe("d1");
    expect(other.headers.get("x-config-ignored")).toBe("storage");
  });

  it("demo_mode is writable: on makes the journal read-only (405) until PUT /config turns it off", async () => {
    const on = await put({ demo_mode: true });
    expect(on.status).toBe(200);
    expect(on.body.demo_mode).toBe(true);
    expect((await call("/api/v1/config")).body.demo_mode).toBe(true);
    // The dashboard tells the owner's switch from the public demo, to offer turning it off.
    expect((await call("/api/v1/config")).body.read_only_switch).toBe(true);
    const write = await call("/api/v1/categories", { method: "POST", body: { name: "Pottery Classes" } });
    const e = expectEnvelope(write, 405, "METHOD_NOT_ALLOWED");
    expect(e.error).toMatch(/demo_mode/);
    expect(write.headers.get("allow")).toContain("GET");
    expect((await call("/api/v1/categories")).status).toBe(200);
    // An assistant's write tools are refused too, even with a read+write token.
    const { token } = await seedToken("read+write");
    const mcp = await call("/mcp", {
      method: "POST",
      headers: { ...bearer(token), accept: "application/json, text/event-stream" },
      body: {
        jsonrpc: "2.0",
        id: 7,
        method: "tools/call",
        params: { name: "add_transaction", arguments: {} },
      },
    });
    expect(mcp.status).toBe(200);
    expect(JSON.stringify(mcp.body)).toMatch(/FORBIDDEN/);
    const off = await put({ demo_mode: false });
    expect(off.status).toBe(200);
    expect(off.body.demo_mode).toBe(false);
    expect(off.body.read_only_switch).toBe(false);
    const after = await call("/api/v1/categories", { method: "POST", body: { name: "Pottery Classes" } });
    expect(after.status).toBe(200);
  });
});

describe("SPEC errors: a wrong method on a known path is 405 with Allow, an unknown path 404", () => {
  it.each([
    ["DELETE", "/api/v1/health", ["GET", "HEAD"]],
    ["POST", "/api/v1/config", ["GET", "PUT"]],
    ["PUT", "/api/v1/transactions/tx_0123456789abcdef", ["PATCH", "DELETE"]],
    ["GET", "/api/v1/parse-failures/resolve-all", null],
  ] as const)("%s %s", async (method, path, allow) => {
    const res = await call(path, { method, body: method === "GET" ? undefined : {} });
    if (allow === null) {
      // GET /parse-failures/{failure_id} exists: this is a known path, answered by its handler.
      expect(res.status).toBe(404);
      return;
    }
    expectEnvelope(res, 405, "METHOD_NOT_ALLOWED");
    const header = (res.headers.get("allow") ?? "").split(/,\s*/);
    for (const m of allow) expect(header).toContain(m);
    expect(header).not.toContain(method);
  });

  it("an unknown path stays 404 under any method", async () => {
    expectEnvelope(await call("/api/v1/no-such-thing"), 404, "NOT_FOUND");
    expectEnvelope(await call("/api/v1/no-such-thing", { method: "DELETE" }), 404, "NOT_FOUND");
  });
});

describe("SPEC parse failures: the list honours `limit` (default 100, 1 to 10000)", () => {
  async function seedFailures(n: number) {
    const stmts = Array.from({ length: n }, (_, i) => {
      const at = new Date(Date.UTC(2024, 9, 1, 0, i)).toISOString();
      return env.DB.prepare(
        `INSERT INTO parse_failures (id, status, failure_stage, institution, forwarded_to, from_email, subject, body, raw_key, detail, created_at, updated_at)
         VALUES (?, 'quarantined', 'no_parser_match', NULL, 'me@example.com', 'a@b.example', ?, 'b', NULL, '{}', ?, ?)`,
      ).bind(`pf_limit_${String(i).padStart(4, "0")}`, `Alert ${i}`, at, at);
    });
    for (let i = 0; i < stmts.length; i += 50) await env.DB.batch(stmts.slice(i, i + 50));
  }

  it("limit=3 gives the 3 newest; no limit gives 100 of 120; bad limits are 422", async () => {
    await env.DB.prepare("DELETE FROM parse_failures").run();
    await seedFailures(120);
    const three = await call("/api/v1/parse-failures?limit=3");
    expect(three.status).toBe(200);
    expect(three.body.count).toBe(3);
    expect(three.body.failures.map((f: { id: string }) => f.id)).toEqual([
      "pf_limit_0119",
      "pf_limit_0118",
      "pf_limit_0117",
    ]);
    const all = await call("/api/v1/parse-failures");
    expect(all.body.failures).toHaveLength(100);
    expect((await call("/api/v1/parse-failures?limit=500")).body.failures).toHaveLength(120);
    for (const bad of ["0", "10001", "abc"]) {
      expectEnvelope(await call(`/api/v1/parse-failures?limit=${bad}`), 422, "VALIDATION_ERROR");
    }
  });
});
