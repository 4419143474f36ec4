import { createMessageBatch, env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import type { Env } from "../../src/env";
import { consume } from "../../src/jobs/consumer";
import { type FakeModel, fakeModel, modelServerUrl } from "../helpers/fake-model-client";
import { call, expectEnvelope } from "../helpers/http";
import { seedTx } from "../helpers/seed";

// The generation runs in the queue consumer. Most tests catch the message the app enqueues and
// hand it to the real consumer with the fake model's address (the queue's own delivery would run
// it with the test Worker's variables, which have no model key); one test lets the real queue
// deliver and checks the job fails in words.

const MONTH = "2024-10";
const NOW = "2024-10-28T18:00:00Z";

function captureQueue() {
  const sent: unknown[] = [];
  const queue = {
    send: async (body: unknown) => void sent.push(body),
    sendBatch: async (msgs: { body: unknown }[]) => void sent.push(...msgs.map((m) => m.body)),
  } as unknown as Queue<unknown>;
  return { sent, queue };
}

let fm: FakeModel;
const modelEnv = (extra: Record<string, string> = {}) => ({
  MODEL_API_KEY: fm.key,
  MODEL_BASE_URL: `${modelServerUrl()}/v1`,
  ...extra,
});

/** POST generate with a captured queue, then run the captured job through the real consumer. */
async function generate(extra: Record<string, string> = {}) {
  const q = captureQueue();
  const res = await call(`/api/v1/insights/generate?month=${MONTH}`, {
    method: "POST",
    now: NOW,
    env: { ...modelEnv(extra), JOBS: q.queue },
  });
  return {
    res,
    sent: q.sent,
    run: () =>
      consume(
        createMessageBatch(
          "finance-journal-jobs",
          q.sent.map((body, i) => ({ id: `m${i}`, timestamp: new Date(), attempts: 1, body })),
        ),
        { ...env, ...modelEnv(extra) } as Env,
      ),
  };
}

const status = () => call("/api/v1/insights/status", { now: NOW, env: modelEnv() }).then((r) => r.body);
const setConfig = (body: Record<string, unknown>) =>
  call("/api/v1/config", { method: "PUT", body, now: NOW });

const LONG_TAIL =
  " The rest of the month looked calm: groceries stayed steady, no new subscriptions appeared, and " +
  "nothing unusual happened at the usual merchants, so there is nothing else to watch right now.";

describe.skipIf(!modelServerUrl())("insights generation", () => {
  beforeAll(async () => {
    fm = await fakeModel();
    await seedTx({
      DateFileName: "2024.10.03-10.00.00",
      Amount: 100,
      Company: "FRESH MART",
      Category: "Groceries",
    });
    await seedTx({
      DateFileName: "2024.10.12-10.00.00",
      Amount: 34.56,
      Company: "CORNER CAFE",
      Category: "Restaurant/Dining",
    });
    await seedTx({
      DateFileName: "2024.09.05-10.00.00",
      Amount: 120,
      Company: "FRESH MART",
      Category: "Groceries",
    });
  });

  it("a disabled provider sends nothing and answers in words", async () => {
    await fm.script([]);
    const { res, sent } = await generate();
    const e = expectEnvelope(res, 422, "AI_NOT_CONFIGURED");
    expect(e.error).toMatch(/Insights are turned off.*Settings → Intelligence/);
    expect(sent).toEqual([]);
    expect(await fm.calls()).toEqual([]);
  });

  it("context: current and previous month, trend, memo; figures in decimal", async () => {
    await setConfig({ insights_user_memo: "Saving for a bike." });
    const res = await call(`/api/v1/insights/context?month=${MONTH}`, { now: NOW });
    expect(res.status).toBe(200);
    expect(res.body.month).toBe(MONTH);
    expect(res.body.current_month.total_spending).toBe(134.56);
    expect(res.body.previous_month.total_spending).toBe(120);
    expect(res.body.delta).toMatchObject({ total_spending: 14.56, total_spending_pct: 12.13 });
    expect(res.body.trend).toHaveLength(6);
    expect(res.body.largest_transactions[0]).toMatchObject({ company: "FRESH MART", amount: 100 });
    expect(res.body.user_memo).toBe("Saving for a bike.");
    expect(res.body.previous_briefing).toBeNull();
  });

  it("202 with a task id → running → saved with a figure check that flags untraceable figures", async () => {
    await setConfig({
      insights_provider: "hosted",
      insights_model: "brief-model",
      insights_reasoning_effort: "high",
    });
    const text =
      "October spending was $134.56 (about $135), up $14.56 from September, or 12.13% more; coffee was $34.6.\n\n" +
      "```\nDebug total: $5555.55 and 99%\n```\n" +
      `A mystery charge of $999.99 made up 77% of it.${LONG_TAIL}`;
    await fm.script([{ kind: "no_tool_call", content: text }]);
    const g = await generate();
    expect(g.res.status).toBe(202);
    expect(g.res.body).toMatchObject({ status: "running", month: MONTH });
    expect(g.res.body.task_id).toEqual(expect.any(String));
    expect(await status()).toMatchObject({ status: "running", month: MONTH, task_id: g.res.body.task_id });

    // A second press while one runs: 409 in words.
    const again = await generate();
    expect(expectEnvelope(again.res, 409, "CONFLICT").error).toMatch(/already being written/);

    await g.run();
    const st = await status();
    expect(st).toMatchObject({ status: "idle", error: null, insight_id: expect.stringMatching(/^ins_/) });

    const chat = (await fm.calls()).find((c) => c.path.endsWith("/chat/completions"))!;
    expect(chat.body.model).toBe("brief-model");
    expect(chat.body.reasoning_effort).toBe("high");
    expect(chat.body.messages[1].content).toContain("Saving for a bike.");

    const list = await call(`/api/v1/insights/saved?month=${MONTH}`, { now: NOW });
    expect(list.body).toMatchObject({
      count: 1,
      items: [{ id: st.insight_id, month: MONTH, figures_ok: false }],
    });
    const one = await call(`/api/v1/insights/saved/${st.insight_id}?month=${MONTH}`, { now: NOW });
    expect(one.body.content).toBe(text);
    expect(one.body.validation.summary).toEqual({ total: 7, matched: 5, unmatched: 2 });
    expect(one.body.validation.unmatched.map((f: { raw: string }) => f.raw)).toEqual(["$999.99", "77%"]);
    expect(one.body.validation.unmatched[0]).toMatchObject({ kind: "dollar", value: 999.99 });
    expect(one.body.validation.unmatched[0].snippet).toContain("mystery charge");

    expectEnvelope(
      await call(`/api/v1/insights/saved/${st.insight_id}?month=2024-09`, { now: NOW }),
      404,
      "NOT_FOUND",
    );
    // The next month's context carries this briefing as the previous one.
    const next = await call("/api/v1/insights/context?month=2024-11", { now: NOW });
    expect(next.body.previous_briefing).toMatchObject({
      month: MONTH,
      excerpt: expect.stringContaining("$134.56"),
    });
  });

  it("a briefing of 200 characters or fewer is not saved; the status says why", async () => {
    await fm.script([{ kind: "no_tool_call", content: "x".repeat(200) }]);
    const before = (await call(`/api/v1/insights/saved?month=${MONTH}`, { now: NOW })).body.count;
    const g = await generate();
    expect(g.res.status).toBe(202);
    await g.run();
    const st = await status();
    expect(st.status).toBe("error");
    expect(st.error).toMatch(/200 characters.*more than 200.*nothing was saved/);
    expect((await call(`/api/v1/insights/saved?month=${MONTH}`, { now: NOW })).body.count).toBe(before);
  });

  it("a model that never answers: the job fails at its time limit and frees the slot", async () => {
    await fm.script([{ kind: "slow", ms: 8000 }]);
    const g = await generate({ INSIGHTS_TIMEOUT_SECONDS: "1" });
    expect(g.res.status).toBe(202);
    const t0 = Date.now();
    await g.run();
    expect(Date.now() - t0).toBeLessThan(5000);
    const st = await status();
    expect(st).toMatchObject({ status: "error" });
    expect(st.error).toMatch(/longer than 1 s.*nothing was saved/);
    // The slot is free again.
    await fm.script([{ kind: "no_tool_call", content: `Fine month.${LONG_TAIL}${LONG_TAIL}` }]);
    const next = await generate();
    expect(next.res.status).toBe(202);
    await next.run();
    expect((await status()).status).toBe("idle");
  });

  it("cli providers are reached through the model bridge with the provider's name as the model", async () => {
    await setConfig({ insights_provider: "cli_b", insights_model: "deep" });
    await fm.script([{ kind: "no_tool_call", content: `Bridge briefing.${LONG_TAIL}${LONG_TAIL}` }]);
    const bridge = { MODEL_BRIDGE_URL: modelServerUrl()!, MODEL_BRIDGE_TOKEN: fm.key, MODEL_API_KEY: "" };
    const g = await generate(bridge);
    expect(g.res.status).toBe(202);
    await g.run();
    expect((await status()).status).toBe("idle");
    const chat = (await fm.calls()).filter((c) => c.path.endsWith("/chat/completions")).at(-1)!;
    expect(chat.body.model).toBe("cli_b:deep");
    // Without a bridge address the task refuses in words.
    const off = await generate({ MODEL_BRIDGE_URL: "" });
    expect(expectEnvelope(off.res, 422, "AI_NOT_CONFIGURED").error).toMatch(/model bridge.*MODEL_BRIDGE_URL/);
  });

  it("through the real queue: the consumer runs the job and a missing key ends it as an error", async () => {
    await setConfig({ insights_provider: "hosted" });
    const res = await call(`/api/v1/insights/generate?month=${MONTH}`, {
      method: "POST",
      now: NOW,
      env: modelEnv(),
    });
    expect(res.status).toBe(202);
    let st = await status();
    for (let i = 0; i < 50 && st.status === "running"; i++) {
      await new Promise((r) => setTimeout(r, 200));
      st = await status();
    }
    expect(st.status).toBe("error");
    expect(st.task_id).toBe(res.body.task_id);
    expect(st.error).toMatch(/no model API key/);
  });

  it("hosted without a model key: a 422 in words, never a 5xx (issue 25 overrides SPEC's 500)", async () => {
    const res = await call(`/api/v1/insights/generate?month=${MONTH}`, { method: "POST", now: NOW });
    expect(expectEnvelope(res, 422, "AI_NOT_CONFIGURED").error).toMatch(/MODEL_API_KEY/);
  });

  it("bad month: 422", async () => {
    expectEnvelope(await call("/api/v1/insights/saved?month=2024-13", { now: NOW }), 422, "VALIDATION_ERROR");
    expectEnvelope(
      await call("/api/v1/insights/generate", { method: "POST", now: NOW }),
      422,
      "VALIDATION_ERROR",
    );
  });
});
