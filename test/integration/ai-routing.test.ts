// One AI entry point (issue 23, point 3): every task asks the routing layer for its provider and
// model from the stored settings. Every action is triggered through HTTP with a hosted key AND a
// model bridge both aimed at the fake model server (recorded under one key), so whatever a task
// sends, the fake server sees it: `disabled` must leave it at ZERO calls, and each setting shown in
// Settings → Intelligence must change what it receives (provider, model, effort) or whether it
// receives anything.
import { createMessageBatch, env } from "cloudflare:test";
import { beforeEach, describe, expect, it } from "vitest";
import type { Env } from "../../src/env";
import { consume } from "../../src/jobs/consumer";
import { buildMime } from "../fixtures/emails/builders";
import { receiptFixture } from "../fixtures/receipts";
import { makePdf } from "../fixtures/statements/make-pdf";
import { type FakeModel, fakeModel, modelServerUrl } from "../helpers/fake-model-client";
import { call, expectEnvelope } from "../helpers/http";
import { seedTx } from "../helpers/seed";

const NOW = "2024-10-28T18:00:00Z";
const MONTH = "2024-10";
let fm: FakeModel;
let seq = 0;

/** A hosted key and a bridge, both the fake model server under this test's key. */
const aiEnv = () => ({
  MODEL_API_KEY: fm.key,
  MODEL_BASE_URL: `${modelServerUrl()}/v1`,
  MODEL_NAME: "server-default",
  MODEL_BRIDGE_URL: modelServerUrl()!,
  MODEL_BRIDGE_TOKEN: fm.key,
});
const setConfig = async (body: Record<string, unknown>) => {
  const res = await call("/api/v1/config", { method: "PUT", body, now: NOW });
  if (res.status !== 200) throw new Error(res.text);
};
const chats = async () => (await fm.calls()).filter((c) => c.path.endsWith("/chat/completions"));

/** Runs what a generate call enqueued through the real consumer, with the same env. */
async function generateAndRun(path: string, body?: unknown) {
  const sent: unknown[] = [];
  const JOBS = { send: async (b: unknown) => void sent.push(b) } as unknown as Queue<unknown>;
  const res = await call(path, { method: "POST", body, now: NOW, env: { ...aiEnv(), JOBS } });
  if (sent.length) {
    await consume(
      createMessageBatch(
        "finance-journal-jobs",
        sent.map((b, i) => ({ id: `j${seq}-${i}`, timestamp: new Date(), attempts: 1, body: b })),
      ),
      { ...env, ...aiEnv() } as Env,
    );
  }
  return res;
}

async function uploadEml(raw: Uint8Array) {
  const form = new FormData();
  form.append("file", new File([raw], "alert.eml", { type: "message/rfc822" }));
  return call("/api/v1/transactions/upload-eml", { method: "POST", rawBody: form, now: NOW, env: aiEnv() });
}

// A statement without a column header row: no deterministic parser can read it.
const LETTER = makePdf([
  [
    { x: 72, y: 740, text: "Harbour Savings - monthly account summary for March 2025" },
    { x: 72, y: 700, text: "On 2025-03-04 you paid Coffee Corner 4.50 from this account." },
  ],
]);

/** Each AI action, triggered as the dashboard would; returns the HTTP status it answered. */
const ACTIONS: Record<string, () => Promise<number>> = {
  async categorization() {
    seq++;
    const raw = buildMime({
      from: "alerts@cibc.com",
      messageId: `<cat-${seq}@x>`,
      body: `Dear Carlos,\n You've recently made a purchase with your CIBC card ending in 2210 for $12.${10 + seq} at NEWSHOP ${seq}.\nCIBC`,
    });
    return (await uploadEml(raw)).status;
  },
  async alert_rescue() {
    seq++;
    const raw = buildMime({
      from: "Alerts <alerts@tangerine.example>",
      subject: "Card activity",
      messageId: `<rescue-${seq}@x>`,
      body: `Transaction alert: your card was charged $23.${10 + seq} at CORNER BAKERY ${seq} today.`,
    });
    return (await uploadEml(raw)).status;
  },
  async override_match() {
    return (await call("/api/v1/overrides/match?company=STARBUCKS%20123", { now: NOW, env: aiEnv() })).status;
  },
  async receipt_reading() {
    const fd = new FormData();
    fd.append("file", new File([receiptFixture("receipt-text.pdf")], "r.pdf", { type: "application/pdf" }));
    const up = await call("/api/v1/attachments", { method: "POST", rawBody: fd, now: NOW });
    return (await call(`/api/v1/attachments/${up.body.id}/parse`, { method: "POST", now: NOW, env: aiEnv() }))
      .status;
  },
  async statement_reading() {
    await env.DB.batch(["statements", "statement_rows"].map((t) => env.DB.prepare(`DELETE FROM ${t}`)));
    const fd = new FormData();
    fd.append("file", new File([LETTER], "harbour.pdf", { type: "application/pdf" }));
    return (await call("/api/v1/statements/upload", { method: "POST", rawBody: fd, now: NOW, env: aiEnv() }))
      .status;
  },
  async insights() {
    return (await generateAndRun(`/api/v1/insights/generate?month=${MONTH}`)).status;
  },
  async summaries() {
    return (await generateAndRun("/api/v1/journal/summaries/generate", { month: MONTH, force: true })).status;
  },
};

const EVERYTHING_ON = {
  ai_categorization_enabled: true,
  ai_extraction_enabled: true,
  ai_receipt_parsing_enabled: true,
  ai_statement_parsing_enabled: true,
};
const ALL_OFF = {
  categorization_provider: "disabled",
  daily_summary_provider: "disabled",
  document_parsing_provider: "disabled",
  insights_provider: "disabled",
};

describe.skipIf(!modelServerUrl())("AI routing: one entry point for every task", () => {
  beforeEach(async () => {
    await env.DB.batch(
      ["transactions", "parse_failures", "app_config", "attachments", "day_summaries"].map((t) =>
        env.DB.prepare(`DELETE FROM ${t}`),
      ),
    );
    fm = await fakeModel();
    await seedTx({
      DateFileName: "2024.10.03-10.00.00",
      Amount: 100,
      Company: "FRESH MART",
      Category: "Groceries",
    });
    await seedTx({ DateFileName: "2024.10.12-10.00.00", Amount: 34.56, Company: "CORNER CAFE" });
  });

  it.each(Object.keys(ACTIONS))(
    "every task disabled: %s sends nothing (zero calls), and no 5xx",
    async (name) => {
      await setConfig({ ...EVERYTHING_ON, ...ALL_OFF });
      const status = await ACTIONS[name]!();
      expect(status, name).toBeLessThan(500);
      expect(await fm.calls()).toEqual([]);
    },
  );

  it("categorization disabled: a readable alert is categorized by rules only; an unreadable one is quarantined", async () => {
    await setConfig({
      ...EVERYTHING_ON,
      ...ALL_OFF,
      insights_provider: "hosted",
      document_parsing_provider: "hosted",
    });
    expect(await ACTIONS.categorization!()).toBe(200);
    const [tx] = (
      await env.DB.prepare("SELECT Category FROM transactions WHERE Company LIKE 'NEWSHOP%'").all()
    ).results as { Category: string }[];
    expect(tx!.Category.toLowerCase()).toBe("miscellaneous");
    await ACTIONS.alert_rescue!();
    const pf = await env.DB.prepare("SELECT COUNT(*) AS n FROM parse_failures").first<{ n: number }>();
    expect(pf!.n).toBe(1);
    expect(await fm.calls()).toEqual([]);
  });

  it.each<[string, string, string]>([
    ["categorization", "categorization", "categorize_transaction"],
    ["categorization", "alert_rescue", "extract_transaction"],
    ["document_parsing", "receipt_reading", "record_receipt"],
    ["document_parsing", "statement_reading", ""],
    ["insights", "insights", ""],
    ["daily_summary", "summaries", ""],
  ])("%s → %s: provider, model and effort as set reach the model", async (task, action, tool) => {
    const others = Object.fromEntries(Object.keys(ALL_OFF).map((k) => [k, "disabled"]));
    const sent = async (settings: Record<string, unknown>) => {
      fm = await fakeModel();
      await setConfig({ ...EVERYTHING_ON, ...others, ...settings });
      await ACTIONS[action]!();
      const all = await chats();
      return tool ? all.filter((c) => c.body.tool_choice?.function?.name === tool) : all;
    };
    // Hosted, model and effort as set.
    const hosted = await sent({
      [`${task}_provider`]: "hosted",
      [`${task}_model`]: `${task}-m`,
      [`${task}_reasoning_effort`]: "high",
    });
    expect(hosted.length, "hosted").toBeGreaterThan(0);
    expect(hosted[0]!.body.model).toBe(`${task}-m`);
    expect(hosted[0]!.body.reasoning_effort).toBe("high");
    // No model set: the server's default; no effort set: none sent.
    const plain = await sent({
      [`${task}_provider`]: "hosted",
      [`${task}_model`]: null,
      [`${task}_reasoning_effort`]: null,
    });
    expect(plain[0]!.body.model).toBe("server-default");
    expect(plain[0]!.body.reasoning_effort).toBeUndefined();
    // A local tool: through the bridge, the provider's name (and model) as the model, no effort.
    const local = await sent({
      [`${task}_provider`]: "cli_b",
      [`${task}_model`]: "deep",
      [`${task}_reasoning_effort`]: "high",
    });
    expect(local[0]!.body.model).toBe("cli_b:deep");
    expect(local[0]!.body.reasoning_effort).toBeUndefined();
    // Off: nothing.
    expect(await sent({ [`${task}_provider`]: "disabled" })).toEqual([]);
  });

  it.each<[string, string]>([
    ["ai_categorization_enabled", "categorization"],
    ["ai_extraction_enabled", "alert_rescue"],
    ["ai_receipt_parsing_enabled", "receipt_reading"],
    ["ai_statement_parsing_enabled", "statement_reading"],
  ])("the switch %s off: %s sends nothing though a provider is chosen", async (consent, action) => {
    await setConfig({
      ...EVERYTHING_ON,
      categorization_provider: "hosted",
      document_parsing_provider: "hosted",
      [consent]: false,
    });
    await ACTIONS[action]!();
    const tools = (await chats()).map((c) => c.body.tool_choice?.function?.name);
    const own = {
      categorization: "categorize_transaction",
      alert_rescue: "extract_transaction",
      receipt_reading: "record_receipt",
    }[action];
    if (own) expect(tools).not.toContain(own);
    else expect(tools).toEqual([]);
  });

  it("a refused key ends the briefing job with words a person can act on", async () => {
    await setConfig({ insights_provider: "hosted" });
    await fm.script([{ kind: "status", status: 401 }]);
    expect(await ACTIONS.insights!()).toBe(202);
    const st = (await call("/api/v1/insights/status", { now: NOW })).body;
    expect(st.status).toBe("error");
    expect(st.error).toMatch(/refused the key \(check MODEL_API_KEY/);
  });

  it("the insights memo reaches the prompt", async () => {
    await setConfig({ insights_provider: "hosted", insights_user_memo: "Saving for a canoe this year." });
    await ACTIONS.insights!();
    const [chat] = await chats();
    expect(JSON.stringify(chat!.body.messages)).toContain("Saving for a canoe this year.");
  });

  it("receipts use the one client: a photo through a local tool is refused in words before anything is sent", async () => {
    await setConfig({ ai_receipt_parsing_enabled: true, document_parsing_provider: "cli_a" });
    const fd = new FormData();
    fd.append("file", new File([receiptFixture("receipt.jpg")], "r.jpg", { type: "image/jpeg" }));
    const up = await call("/api/v1/attachments", { method: "POST", rawBody: fd, now: NOW });
    const res = await call(`/api/v1/attachments/${up.body.id}/parse`, {
      method: "POST",
      now: NOW,
      env: aiEnv(),
    });
    expect(expectEnvelope(res, 422, "RECEIPT_UNREADABLE").error).toMatch(
      /Command-line model A reads text only/,
    );
    expect(await fm.calls()).toEqual([]);
  });
});
