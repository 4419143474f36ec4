import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { getDb } from "../../src/db";
import { vendorConnections } from "../../src/db/schema";
import { modelServerUrl } from "../helpers/fake-model-client";
import { call, expectEnvelope } from "../helpers/http";

describe("vendor connection routes", () => {
  it("not set up: start answers 422 in words; status says not connected; the config agrees", async () => {
    const res = await call("/api/v1/auth/vendor/start", { method: "POST" });
    expect(expectEnvelope(res, 422, "VALIDATION_ERROR").error).toMatch(/not set up.*VENDOR_CLIENT_ID/);
    const st = await call("/api/v1/auth/vendor/status");
    expect(st.body).toEqual({
      connected: false,
      pending: false,
      email: null,
      error: null,
      verification_url: null,
      user_code: null,
    });
    expect((await call("/api/v1/auth/vendor/disconnect", { method: "POST" })).body).toEqual({ ok: true });
  });

  it.skipIf(!modelServerUrl())("an authorization server that answers nonsense: 502 in words", async () => {
    const sink = `${modelServerUrl()}/__sink/vendor-${crypto.randomUUID()}`;
    const res = await call("/api/v1/auth/vendor/start", {
      method: "POST",
      env: {
        VENDOR_DEVICE_AUTH_URL: `${sink}/device`,
        VENDOR_TOKEN_URL: `${sink}/token`,
        VENDOR_CLIENT_ID: "c",
      } as never,
    });
    expect(expectEnvelope(res, 502, "BAD_GATEWAY").error).toMatch(/could not start.*HTTP 200/);
  });

  it("a pending sign-in: status shows the code, polls no faster than the interval, expires in words", async () => {
    const sink = `${modelServerUrl() ?? "http://127.0.0.1:9"}/__sink/vendor-${crypto.randomUUID()}`;
    const vendorEnv = {
      VENDOR_DEVICE_AUTH_URL: `${sink}/device`,
      VENDOR_TOKEN_URL: `${sink}/token`,
      VENDOR_CLIENT_ID: "c",
    } as never;
    const row = {
      user_id: "default",
      state: "pending",
      device_code: "dev-1",
      user_code: "WXYZ-1234",
      verification_url: "https://example.test/activate",
      interval_s: 5,
      expires_at: "2026-01-01T00:10:00.000Z",
      next_poll_at: "2026-01-01T00:00:05.000Z",
      access_token: "never-shown",
      updated_at: "2026-01-01T00:00:00.000Z",
    };
    await getDb(env.DB).insert(vendorConnections).values(row);
    const early = await call("/api/v1/auth/vendor/status", { now: "2026-01-01T00:00:02Z", env: vendorEnv });
    expect(early.body).toMatchObject({
      pending: true,
      connected: false,
      user_code: "WXYZ-1234",
      verification_url: row.verification_url,
    });
    expect(early.text).not.toContain("never-shown");
    expect(early.text).not.toContain("dev-1");
    const late = await call("/api/v1/auth/vendor/status", { now: "2026-01-01T00:20:00Z", env: vendorEnv });
    expect(late.body).toMatchObject({
      pending: false,
      connected: false,
      error: "The sign-in code expired; start again.",
    });
    const [stored] = await getDb(env.DB).select().from(vendorConnections);
    expect(stored).toMatchObject({ state: "error", device_code: null });
    await call("/api/v1/auth/vendor/disconnect", { method: "POST" });
    expect(await getDb(env.DB).select().from(vendorConnections)).toEqual([]);
  });
});
