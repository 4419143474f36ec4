// SPEC.md rule 8: CORS_ALLOWED_ORIGINS; credentials only for listed origins. The default is empty
// (issue 26 finding 10): http://localhost:5173 is trusted only when listed, and the dashboard's dev
// server proxies the API instead (dashboard/vite.config.ts).
import { beforeAll, describe, expect, it } from "vitest";
import { resetState, setPassword } from "../helpers/auth";
import { call } from "../helpers/http";

const DEV = "http://localhost:5173";
const EVIL = "https://evil.example";
/** What a deployment that serves its dashboard elsewhere sets. */
const LISTED = { CORS_ALLOWED_ORIGINS: DEV };

const preflight = (origin: string, env: Record<string, string> = LISTED) =>
  call("/api/v1/config", {
    method: "OPTIONS",
    env,
    headers: {
      origin,
      "access-control-request-method": "PUT",
      "access-control-request-headers": "authorization, content-type",
    },
  });

beforeAll(async () => {
  await resetState();
  await setPassword();
});

describe("CORS", () => {
  it("by default trusts no origin: a local app on :5173 gets no CORS headers and cannot write", async () => {
    const read = await call("/api/v1/health", { headers: { origin: DEV } });
    expect(read.headers.get("access-control-allow-origin")).toBeNull();
    expect(read.headers.get("access-control-allow-credentials")).toBeNull();
    const pre = await preflight(DEV, {});
    expect(pre.headers.get("access-control-allow-origin")).toBeNull();
    const write = await call("/api/v1/auth/login", {
      method: "POST",
      body: { password: "whatever it is" },
      headers: { origin: DEV },
    });
    expect(write.status).toBe(403);
  });

  it("allows a listed origin with credentials", async () => {
    const res = await call("/api/v1/health", { env: LISTED, headers: { origin: DEV } });
    expect(res.headers.get("access-control-allow-origin")).toBe(DEV);
    expect(res.headers.get("access-control-allow-credentials")).toBe("true");
    expect(res.headers.get("vary")).toContain("Origin");
  });

  it("gives other origins no CORS headers", async () => {
    const res = await call("/api/v1/health", { headers: { origin: EVIL } });
    expect(res.headers.get("access-control-allow-origin")).toBeNull();
    expect(res.headers.get("access-control-allow-credentials")).toBeNull();
  });

  it("answers a preflight before authentication (204, even with a password set)", async () => {
    const res = await preflight(DEV);
    expect(res.status).toBe(204);
    expect(res.headers.get("access-control-allow-origin")).toBe(DEV);
    expect(res.headers.get("access-control-allow-credentials")).toBe("true");
    expect(res.headers.get("access-control-allow-methods")).toContain("PUT");
    expect(res.headers.get("access-control-allow-headers")).toBe("authorization, content-type");
    expect(res.headers.get("access-control-max-age")).toBe("600");
  });

  it("answers a preflight from an unlisted origin without allowing it", async () => {
    const res = await preflight(EVIL);
    expect(res.status).toBe(204);
    expect(res.headers.get("access-control-allow-origin")).toBeNull();
    expect(res.headers.get("access-control-allow-methods")).toBeNull();
  });

  it("reads a comma-separated list from CORS_ALLOWED_ORIGINS", async () => {
    const env = { CORS_ALLOWED_ORIGINS: "https://a.example, https://b.example/" };
    const b = await call("/api/v1/health", { env, headers: { origin: "https://b.example" } });
    expect(b.headers.get("access-control-allow-origin")).toBe("https://b.example");
    expect(b.headers.get("access-control-allow-credentials")).toBe("true");
    const dev = await call("/api/v1/health", { env, headers: { origin: DEV } });
    expect(dev.headers.get("access-control-allow-origin")).toBeNull();
  });

  it("never sends credentials with the * wildcard", async () => {
    const env = { CORS_ALLOWED_ORIGINS: "*" };
    const res = await call("/api/v1/health", { env, headers: { origin: EVIL } });
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(res.headers.get("access-control-allow-credentials")).toBeNull();
    const pre = await preflight(EVIL, env);
    expect(pre.headers.get("access-control-allow-origin")).toBe("*");
    expect(pre.headers.get("access-control-allow-credentials")).toBeNull();
  });

  it("puts CORS headers on error responses too, so the dashboard can read a 401", async () => {
    const res = await call("/api/v1/config", { env: LISTED, headers: { origin: DEV } });
    expect(res.status).toBe(401);
    expect(res.headers.get("access-control-allow-origin")).toBe(DEV);
    expect(res.headers.get("access-control-expose-headers")).toContain("Retry-After");
  });
});
