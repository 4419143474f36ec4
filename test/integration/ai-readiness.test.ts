// GET /config/ai-readiness (issue 25): per AI action, whether it can run now, what it needs and
// why not, in words; the dashboard disables a button from it. No configuration state is a 5xx.
import { env } from "cloudflare:test";
import { beforeEach, describe, expect, it } from "vitest";
import { call, expectEnvelope } from "../helpers/http";

const NOW = "2024-10-28T18:00:00Z";
let lastTasks: Record<string, any> = {};
const KEY = { MODEL_API_KEY: "sk-test-not-real" };
const setConfig = async (body: Record<string, unknown>) =>
  expect((await call("/api/v1/config", { method: "PUT", body, now: NOW })).status).toBe(200);
const readiness = async (extra: Record<string, string> = {}) => {
  const res = await call("/api/v1/config/ai-readiness", { now: NOW, env: { MODEL_API_KEY: "", ...extra } });
  expect(res.status).toBe(200);
  lastTasks = Object.fromEntries((res.body.tasks as { task: string }[]).map((t) => [t.task, t]));
  return Object.fromEntries((res.body.actions as { action: string }[]).map((a) => [a.action, a])) as Record<
    string,
    any
  >;
};

describe("AI readiness", () => {
  beforeEach(() => env.DB.prepare("DELETE FROM app_config").run());

  it("a fresh journal: every action off, each saying what it needs and where to set it up", async () => {
    const r = await readiness();
    expect(Object.keys(r).sort()).toEqual(
      [
        "alert_rescue",
        "categorization",
        "insights",
        "receipt_reading",
        "statement_reading",
        "summaries",
      ].sort(),
    );
    for (const a of Object.values(r)) {
      expect(a.ready).toBe(false);
      expect(a.provider_label).toBe("Off");
      expect(a.reason).toMatch(/turned off: choose a provider under Settings → Intelligence/);
      expect(a.needs).toMatch(/^A provider for .+ under Settings → Intelligence/);
      expect(a.settings_url).toBe("/settings#intelligence");
    }
    expect(r.receipt_reading.needs).toContain("“Read receipts with AI”");
  });

  it("hosted chosen with no key: not ready, in words; and the action itself is a 4xx, never a 500", async () => {
    await setConfig({ insights_provider: "hosted" });
    const r = await readiness();
    expect(r.insights).toMatchObject({
      ready: false,
      provider: "hosted",
      provider_label: "Hosted model API",
    });
    expect(r.insights.reason).toMatch(/no model API key \(MODEL_API_KEY/);
    // The per-task line of Settings → Intelligence says the same.
    expect(lastTasks.insights).toMatchObject({ ready: false, provider_label: "Hosted model API" });
    expect(lastTasks.insights.reason).toBe(r.insights.reason);
    const gen = await call("/api/v1/insights/generate?month=2024-10", {
      method: "POST",
      now: NOW,
      env: { MODEL_API_KEY: "" },
    });
    expectEnvelope(gen, 422, "AI_NOT_CONFIGURED");
  });

  it("with a key: ready, with the model it will use; a consent switch off is named", async () => {
    await setConfig({
      insights_provider: "hosted",
      insights_model: "brief-model",
      document_parsing_provider: "hosted",
    });
    const r = await readiness(KEY);
    expect(r.insights).toMatchObject({ ready: true, reason: null, model: "brief-model" });
    expect(r.receipt_reading.ready).toBe(false);
    expect(r.receipt_reading.reason).toBe("“Read receipts with AI” is off under Settings → Intelligence.");
    // The task itself is reachable: the switch is the action's concern, not the task's.
    expect(lastTasks.document_parsing).toMatchObject({ ready: true, reason: null, model: "gpt-4o-mini" });
    await setConfig({ ai_receipt_parsing_enabled: true });
    expect((await readiness(KEY)).receipt_reading).toMatchObject({ ready: true, model: "gpt-4o-mini" });
  });

  it("a local tool: needs the bridge's address and token, then the bridge itself to run it", async () => {
    await setConfig({ daily_summary_provider: "cli_a" });
    const none = await readiness();
    expect(none.summaries.reason).toMatch(
      /Command-line model A runs on your computer.*MODEL_BRIDGE_URL and MODEL_BRIDGE_TOKEN/,
    );
    // An address and token, but nothing answers there.
    const dead = await readiness({ MODEL_BRIDGE_URL: "http://127.0.0.1:9", MODEL_BRIDGE_TOKEN: "t" });
    expect(dead.summaries.ready).toBe(false);
    expect(dead.summaries.reason).toMatch(/model bridge does not answer/);
  });
});
