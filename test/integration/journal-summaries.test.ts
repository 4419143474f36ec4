import { createMessageBatch, env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { countingD1 } from "../../bench/lib/d1-count";
import { getDb } from "../../src/db";
import { daySummaries } from "../../src/db/schema";
import type { Env } from "../../src/env";
import { consume } from "../../src/jobs/consumer";
import { runCron } from "../../src/jobs/cron";
import { CRON } from "../../src/jobs/schedule";
import { fixedClock } from "../../src/lib/clock";
import { type FakeModel, fakeModel, modelServerUrl } from "../helpers/fake-model-client";
import { call, expectEnvelope } from "../helpers/http";
import { seedTx } from "../helpers/seed";

// As in insights.test.ts: the enqueued job is caught and run through the real consumer with the
// fake model's address.
const NOW = "2024-10-28T18:00:00Z";
let fm: FakeModel;
const modelEnv = (extra: Record<string, string> = {}) => ({
  MODEL_API_KEY: fm.key,
  MODEL_BASE_URL: `${modelServerUrl()}/v1`,
  ...extra,
});

function captured(extra: Record<string, string> = {}) {
  const sent: unknown[] = [];
  const JOBS = { send: async (b: unknown) => void sent.push(b) } as unknown as Queue<unknown>;
  const jobEnv = { ...env, ...modelEnv(extra) } as Env;
  return {
    sent,
    env: { ...modelEnv(extra), JOBS },
    fullEnv: { ...jobEnv, JOBS } as Env,
    run: () =>
      consume(
        createMessageBatch(
          "finance-journal-jobs",
          sent.map((body, i) => ({ id: `s${i}`, timestamp: new Date(), attempts: 1, body })),
        ),
        jobEnv,
      ),
  };
}

const generate = (body: unknown, q: ReturnType<typeof captured>) =>
  call("/api/v1/journal/summaries/generate", { method: "POST", body, now: NOW, env: q.env });
const status = () => call("/api/v1/journal/summaries/status", { now: NOW }).then((r) => r.body);
const saved = (month: string) =>
  call(`/api/v1/journal/summaries?month=${month}`, { now: NOW }).then((r) => r.body.summaries);
const setConfig = (body: Record<string, unknown>) =>
  call("/api/v1/config", { method: "PUT", body, now: NOW });

describe.skipIf(!modelServerUrl())("day summaries", () => {
  beforeAll(async () => {
    fm = await fakeModel();
    for (const [d, amount, company] of [
      ["01-09", 12.5, "CORNER CAFE"],
      ["02-09", 80, "FRESH MART"],
      ["03-09", 45.1, "GAS BAR"],
      ["03-15", 5, "CORNER CAFE"],
    ] as const) {
      await seedTx({
        DateFileName: `2024.10.${d}.00.00`,
        Amount: amount,
        Company: company,
        Category: "Groceries",
      });
    }
    await getDb(env.DB)
      .insert(daySummaries)
      .values({ user_id: "default", day: "2024-10-02", summary: "Written earlier.", created_at: NOW });
  });

  it("a disabled provider sends nothing and answers in words", async () => {
    const q = captured();
    const res = await generate({ month: "2024-10" }, q);
    expect(expectEnvelope(res, 422, "AI_NOT_CONFIGURED").error).toMatch(/Day summaries are turned off/);
    expect(q.sent).toEqual([]);
  });

  it("hosted: one call per missing day only; 409 in words while it runs; progress to the end", async () => {
    await setConfig({ daily_summary_provider: "hosted", daily_summary_model: "day-model" });
    await fm.script([
      { kind: "no_tool_call", content: "Coffee at Corner Cafe, $12.50 in all." },
      { kind: "no_tool_call", content: "Gas and a coffee: $50.10." },
    ]);
    const q = captured();
    const counter = countingD1(env.DB);
    const res = await call("/api/v1/journal/summaries/generate", {
      method: "POST",
      body: { month: "2024-10" },
      now: NOW,
      env: { ...q.env, DB: counter.db },
    });
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ status: "running", month: "2024-10", dates_queued: 2 });
    expect(
      counter.trips.some(
        (t) => t.kind === "batch" && t.sql.some((x) => /from "day_summaries"/.test(x)) && t.sql.length === 2,
      ),
    ).toBe(true);
    expect(await status()).toMatchObject({ status: "running", month: "2024-10", total: 2, completed: 0 });

    const second = await generate({ month: "2024-10" }, captured());
    expect(expectEnvelope(second, 409, "CONFLICT").error).toMatch(
      /already being written \(0 of 2 days done\)/,
    );

    await q.run();
    expect(await status()).toMatchObject({ status: "idle", total: 2, completed: 2, error: null });
    expect(await saved("2024-10")).toEqual({
      "2024-10-01": "Coffee at Corner Cafe, $12.50 in all.",
      "2024-10-02": "Written earlier.",
      "2024-10-03": "Gas and a coffee: $50.10.",
    });
    const chats = (await fm.calls()).filter((c) => c.path.endsWith("/chat/completions"));
    expect(chats).toHaveLength(2);
    expect(chats.map((c) => JSON.parse(c.body.messages[1].content).date)).toEqual([
      "2024-10-01",
      "2024-10-03",
    ]);
    expect(chats[0]!.body.model).toBe("day-model");
    // The journal shows them.
    const journal = await call("/api/v1/journal?month=2024-10", { now: NOW });
    expect(JSON.stringify(journal.body)).toContain("Gas and a coffee");
  });

  it("nothing missing: 202 idle with zero days, and no job starts", async () => {
    await fm.script([]);
    const q = captured();
    const res = await generate({ month: "2024-10" }, q);
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ status: "idle", dates_queued: 0 });
    expect(q.sent).toEqual([]);
  });

  it("cli providers: the days go in one batched prompt through the bridge", async () => {
    await setConfig({ daily_summary_provider: "cli_a", daily_summary_model: null });
    await fm.script([
      {
        kind: "no_tool_call",
        content:
          'Here you go:\n{"2024-10-01": "Batched one.", "2024-10-02": "Batched two.", "2024-10-03": "Batched three."}',
      },
    ]);
    const q = captured({
      MODEL_BRIDGE_URL: modelServerUrl()!,
      MODEL_BRIDGE_TOKEN: fm.key,
      MODEL_API_KEY: "",
    });
    const res = await generate({ month: "2024-10", force: true }, q);
    expect(res.body).toMatchObject({ status: "running", dates_queued: 3 });
    await q.run();
    expect(await status()).toMatchObject({ status: "idle", completed: 3 });
    const chats = (await fm.calls()).filter((c) => c.path.endsWith("/chat/completions"));
    expect(chats).toHaveLength(1);
    expect(chats[0]!.body.model).toBe("cli_a");
    expect(Object.keys(JSON.parse(chats[0]!.body.messages[1].content).days)).toEqual([
      "2024-10-01",
      "2024-10-02",
      "2024-10-03",
    ]);
    expect((await saved("2024-10"))["2024-10-02"]).toBe("Batched two.");
  });

  it("the automatic summary fires at the configured local time across the fall-back DST change", async () => {
    await seedTx({
      DateFileName: "2024.11.03-12.00.00",
      Amount: 20,
      Company: "BAKERY",
      Category: "Groceries",
    });
    await setConfig({
      daily_summary_provider: "hosted",
      enable_daily_summaries: true,
      daily_summary_schedule_time: "19:00",
      timezone: "America/Toronto",
    });
    await fm.script([{ kind: "no_tool_call", content: "Bread at the bakery." }]);
    const q = captured();
    // 23:00Z on Nov 3 was 19:00 the day before the change; that day it is 18:00 EST.
    await runCron(CRON.everyMinute, q.fullEnv, fixedClock("2024-11-03T23:00:00Z"));
    expect(q.sent).toEqual([]);
    const ran = await runCron(CRON.everyMinute, q.fullEnv, fixedClock("2024-11-04T00:00:00Z"));
    expect(ran).toContain("summaries.daily");
    expect(q.sent).toEqual([
      {
        type: "job",
        kind: "day-summaries",
        payload: expect.objectContaining({ days: ["2024-11-03"], month: "2024-11" }),
      },
    ]);
    await q.run();
    expect(await saved("2024-11")).toEqual({ "2024-11-03": "Bread at the bakery." });
    // Switched off: nothing fires.
    await setConfig({ enable_daily_summaries: false });
    const off = captured();
    await runCron(CRON.everyMinute, off.fullEnv, fixedClock("2024-11-05T00:00:00Z"));
    expect(off.sent).toEqual([]);
  });

  it("bad body: 422", async () => {
    const res = await call("/api/v1/journal/summaries/generate", {
      method: "POST",
      body: { month: "2024-13" },
      now: NOW,
    });
    expectEnvelope(res, 422, "VALIDATION_ERROR");
  });
});
