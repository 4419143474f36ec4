import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { AppConfigResponse, AppConfigUpdateRequest, StoredConfig } from "../../src/domains/config/schemas";
import { call, expectEnvelope } from "../helpers/http";
import { brokenDb } from "../helpers/broken";

const put = (body: unknown, extra: Parameters<typeof call>[1] = {}) =>
  call("/api/v1/config", { method: "PUT", body, ...extra });

describe("GET /api/v1/config", () => {
  it("returns every AppConfigResponse field with SPEC defaults", async () => {
    const res = await call("/api/v1/config");
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      storage: "d1",
      demo_mode: false,
      user_id: "default",
      hosted_enabled: false,
      cloud_available: true,
      cli_a_available: false,
      cli_b_available: false,
      cli_c_available: false,
      vendor_oauth_connected: false,
      vendor_oauth_email: null,
      enable_daily_summaries: false,
      ai_categorization_enabled: false,
      ai_extraction_enabled: false,
      timezone: "America/Los_Angeles",
      ai_receipt_parsing_enabled: false,
      ai_statement_parsing_enabled: false,
      auth_bypass_for_dev: false,
      categorization_provider: "disabled",
      daily_summary_provider: "disabled",
      document_parsing_provider: "disabled",
      insights_provider: "disabled",
      categorization_model: null,
      insights_reasoning_effort: null,
      daily_summary_schedule_time: "19:00",
      insights_user_memo: null,
      object_backup_enabled: false,
      object_backup_bucket: null,
      object_backup_prefix: null,
      tax_tracking_enabled: true,
    });
  });

  it("computes availability from the environment: a model key enables hosted and AI categorization", async () => {
    const res = await call("/api/v1/config", { env: { MODEL_API_KEY: "sk-test-not-real" } });
    expect(res.body.hosted_enabled).toBe(true);
    expect(res.body.ai_categorization_enabled).toBe(true);
    expect(res.text).not.toContain("sk-test-not-real");
  });
});

describe("one declaration per setting", () => {
  it("every stored setting is shown and updatable, and the response adds only deployment fields", () => {
    const stored = Object.keys(StoredConfig.shape).sort();
    const shown = Object.keys(AppConfigResponse.shape);
    const updatable = Object.keys(AppConfigUpdateRequest.shape);
    for (const k of stored) {
      expect(shown).toContain(k);
      expect(updatable).toContain(k);
    }
    expect(shown.filter((k) => !stored.includes(k)).sort()).toEqual(
      [
        "storage",
        "hosted_enabled",
        "cloud_available",
        "cli_a_available",
        "cli_b_available",
        "cli_c_available",
        "vendor_oauth_connected",
        "vendor_oauth_email",
        // demo_mode comes from the owner's switch, not the deployment's demo (the dashboard's banner).
        "read_only_switch",
      ].sort(),
    );
    expect(updatable.filter((k) => !stored.includes(k)).sort()).toEqual(["storage"]);
  });
});

describe("PUT /api/v1/config", () => {
  it("persists a partial update and leaves other fields alone", async () => {
    const res = await put({
      timezone: "America/Toronto",
      daily_summary_schedule_time: "07:30",
      insights_user_memo: "hi",
    });
    expect(res.status).toBe(200);
    expect(res.body.timezone).toBe("America/Toronto");
    expect(res.body.daily_summary_schedule_time).toBe("07:30");
    const again = await call("/api/v1/config");
    expect(again.body.timezone).toBe("America/Toronto");
    expect(again.body.insights_user_memo).toBe("hi");
    expect(again.body.tax_tracking_enabled).toBe(true);
  });

  it("null resets a field: to null where nullable, else to its default", async () => {
    await put({ insights_model: "m1", tax_tracking_enabled: false, daily_summary_schedule_time: "06:00" });
    const res = await put({
      insights_model: null,
      tax_tracking_enabled: null,
      daily_summary_schedule_time: null,
    });
    expect(res.body.insights_model).toBeNull();
    expect(res.body.tax_tracking_enabled).toBe(true);
    expect(res.body.daily_summary_schedule_time).toBe("19:00");
  });

  it("accepts every enum value and the 2000-character memo limit", async () => {
    const res = await put({
      categorization_provider: "hosted",
      daily_summary_provider: "cli_a",
      document_parsing_provider: "cli_c",
      insights_provider: "cli_b",
      categorization_reasoning_effort: "max",
      insights_reasoning_effort: "none",
      insights_user_memo: "x".repeat(2000),
      daily_summary_schedule_time: "23:59",
    });
    expect(res.status).toBe(200);
    expect(res.body.categorization_provider).toBe("hosted");
    expect(res.body.insights_user_memo).toHaveLength(2000);
  });

  const invalid: [string, Record<string, unknown>, string][] = [
    ["hour 24", { daily_summary_schedule_time: "24:00" }, "daily_summary_schedule_time"],
    ["single-digit hour", { daily_summary_schedule_time: "7:00" }, "daily_summary_schedule_time"],
    ["minute 60", { daily_summary_schedule_time: "12:60" }, "daily_summary_schedule_time"],
    ["12-hour clock", { daily_summary_schedule_time: "7:00 PM" }, "daily_summary_schedule_time"],
    ["memo over 2000", { insights_user_memo: "x".repeat(2001) }, "insights_user_memo"],
    ["categorization provider cli_a", { categorization_provider: "cli_a" }, "categorization_provider"],
    ["unknown provider", { insights_provider: "openai" }, "insights_provider"],
    ["unknown effort", { daily_summary_reasoning_effort: "extreme" }, "daily_summary_reasoning_effort"],
    ["unknown time zone", { timezone: "Mars/Olympus_Mons" }, "timezone"],
    ["abbreviation is not a zone name", { timezone: "Not/AZone" }, "timezone"],
    ["boolean as string", { ai_extraction_enabled: "yes" }, "ai_extraction_enabled"],
    ["number for model", { insights_model: 5 }, "insights_model"],
    ["empty user id", { user_id: "  " }, "user_id"],
  ];
  it.each(invalid)("rejects %s with 422 VALIDATION_ERROR", async (_name, body, field) => {
    const res = await put(body);
    const e = expectEnvelope(res, 422, "VALIDATION_ERROR");
    expect(e.details.errors.length).toBeGreaterThan(0);
    if (field) expect(e.details.errors.map((x: { loc: string[] }) => x.loc.at(-1))).toContain(field);
  });

  it("rejects a non-object body", async () => {
    expectEnvelope(await put([1, 2]), 422, "VALIDATION_ERROR");
  });

  it("writes a JSON backup to R2 on every write, and reads fall back to it when D1 fails", async () => {
    await put({ timezone: "Europe/Paris", insights_model: "backup-model" });
    const obj = await env.FILES.get("backups/config/app_config.json");
    expect(obj).not.toBeNull();
    const saved = (await obj!.json()) as Record<string, unknown>;
    expect(saved.timezone).toBe("Europe/Paris");
    const res = await call("/api/v1/config", { env: { DB: brokenDb } });
    expect(res.status).toBe(200);
    expect(res.body.timezone).toBe("Europe/Paris");
    expect(res.body.insights_model).toBe("backup-model");
  });
});
