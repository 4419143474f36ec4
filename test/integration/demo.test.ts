import { describe, expect, it } from "vitest";
import { call, expectEnvelope } from "../helpers/http";

const demo = { DEMO_MODE: "true" };

describe("demo mode", () => {
  it.each(["POST", "PUT", "PATCH", "DELETE"])("%s is refused with 405 and the envelope", async (method) => {
    const res = await call("/api/v1/config", { method, body: { timezone: "UTC" }, env: demo });
    const e = expectEnvelope(res, 405, "METHOD_NOT_ALLOWED");
    expect(e.error).toMatch(/read-only demo/);
    expect(res.headers.get("allow")).toContain("GET");
  });

  it("refuses writes even to routes that do not exist", async () => {
    expectEnvelope(await call("/api/v1/nothing", { method: "POST", env: demo }), 405, "METHOD_NOT_ALLOWED");
  });

  it("reads work and report demo_mode", async () => {
    const res = await call("/api/v1/config", { env: demo });
    expect(res.status).toBe(200);
    expect(res.body.demo_mode).toBe(true);
    expect((await call("/api/v1/health", { env: demo })).status).toBe(200);
  });

  it("an Authorization header is accepted and ignored", async () => {
    const res = await call("/api/v1/config", {
      env: demo,
      headers: { authorization: "Bearer fin_not_a_real_token" },
    });
    expect(res.status).toBe(200);
    const bad = await call("/api/v1/config", { env: demo, headers: { authorization: "Basic Zm9vOmJhcg==" } });
    expect(bad.status).toBe(200);
  });

  it("does not persist anything: config unchanged after refused write", async () => {
    await call("/api/v1/config", { method: "PUT", body: { timezone: "UTC" }, env: demo });
    expect((await call("/api/v1/config", { env: demo })).body.timezone).toBe("America/Los_Angeles");
  });
});
