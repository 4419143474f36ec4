import { describe, expect, it } from "vitest";
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
});
