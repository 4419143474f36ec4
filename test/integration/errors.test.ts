import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { brokenDb } from "../helpers/broken";
import { call, expectEnvelope } from "../helpers/http";

describe("error envelope", () => {
  it("unknown routes are 404 NOT_FOUND", async () => {
    const res = await call("/api/v1/does-not-exist");
    const e = expectEnvelope(res, 404, "NOT_FOUND");
    expect(e.error).toMatch(/does-not-exist/);
    expect(e.details).toBeNull();
  });

  it("a wrong method on a known path is 405 with the envelope and Allow (issue 23 point 5)", async () => {
    const res = await call("/api/v1/health", { method: "DELETE" });
    expectEnvelope(res, 405, "METHOD_NOT_ALLOWED");
    expect(res.headers.get("allow")).toContain("GET");
  });

  it("query validation is 422 with the query location", async () => {
    const e = expectEnvelope(await call("/api/v1/activity?limit=9999"), 422, "VALIDATION_ERROR");
    expect(e.details.errors[0].loc).toEqual(["query", "limit"]);
    const both = expectEnvelope(
      await call("/api/v1/summary/trend?months=1&end_month=2024-13"),
      422,
      "VALIDATION_ERROR",
    );
    expect(both.details.errors.map((x: { loc: string[] }) => x.loc.join("."))).toEqual([
      "query.months",
      "query.end_month",
    ]);
  });

  it("path validation is 422 with the path location", async () => {
    const e = expectEnvelope(
      await call(`/api/v1/activity/${"x".repeat(150)}/revert`, { method: "POST" }),
      422,
      "VALIDATION_ERROR",
    );
    expect(e.details.errors[0].loc).toEqual(["params", "entry_id"]);
  });

  it("malformed JSON is 422 VALIDATION_ERROR, not a silent empty body", async () => {
    const res = await call("/api/v1/config", {
      method: "PUT",
      rawBody: "{not json",
      headers: { "content-type": "application/json" },
    });
    const e = expectEnvelope(res, 422, "VALIDATION_ERROR");
    expect(e.details.errors).toEqual([{ loc: ["body"], msg: "JSON decode error", type: "json_invalid" }]);
  });

  it("a missing body is 422 with loc body", async () => {
    const res = await call("/api/v1/config", {
      method: "PUT",
      headers: { "content-type": "application/json" },
    });
    const e = expectEnvelope(res, 422, "VALIDATION_ERROR");
    expect(e.details.errors[0].loc).toEqual(["body"]);
  });

  it("body validation lists every problem in details", async () => {
    const res = await call("/api/v1/config", {
      method: "PUT",
      body: { daily_summary_schedule_time: "25:00", insights_provider: "nope", timezone: "Mars/Olympus" },
    });
    const e = expectEnvelope(res, 422, "VALIDATION_ERROR");
    const locs = e.details.errors.map((x: { loc: string[] }) => x.loc.join("."));
    expect(locs).toEqual(
      expect.arrayContaining(["body.daily_summary_schedule_time", "body.insights_provider", "body.timezone"]),
    );
    expect(e.details.errors.length).toBe(3);
  });

  it("unexpected exceptions are 500 INTERNAL_ERROR with no stack or internals", async () => {
    const res = await call("/api/v1/config", {
      method: "PUT",
      body: { enable_daily_summaries: true },
      env: { DB: brokenDb },
    });
    const e = expectEnvelope(res, 500, "INTERNAL_ERROR");
    expect(e.error).toBe("Internal server error");
    expect(res.text).not.toMatch(/secret|\.ts:|at \w+ \(|D1_ERROR/);
  });

  it("the real bindings are declared", () => {
    expect(env.DB).toBeDefined();
    expect(env.FILES).toBeDefined();
    expect(env.JOBS).toBeDefined();
    expect(env.JOB_SLOT).toBeDefined();
  });
});
