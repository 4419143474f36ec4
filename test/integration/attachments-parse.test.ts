import { env } from "cloudflare:test";
import { beforeEach, describe, expect, it } from "vitest";
import { countingD1 } from "../../bench/lib/d1-count";
import { jobCtx } from "../../src/domains/activity/journal";
import { readReceipt } from "../../src/domains/attachments/reading";
import { systemClock } from "../../src/lib/clock";
import type { Env } from "../../src/env";
import { type FakeModel, fakeModel, modelServerUrl } from "../helpers/fake-model-client";
import { call, expectEnvelope } from "../helpers/http";
import { expectEntryInBatch } from "../helpers/ledger-batch";
import { seedTx } from "../helpers/seed";
import { receiptFixture } from "../fixtures/receipts";
import { contentBomb, pageCycle, pageDag } from "../fixtures/hostile/pdfs";

const NOW = "2024-10-20T12:00:00.000Z";
const GOOD = {
  merchant: "Corner Bistro",
  date: "2024-10-14",
  total: 30.55,
  currency: "CAD",
  line_items: [
    { description: "Pasta", amount: 18.5 },
    { description: "Salad", amount: 9.25 },
    { description: "Tax", amount: 2.8 },
  ],
};

let m: FakeModel;
const modelEnv = () => ({
  MODEL_API_KEY: m.key,
  MODEL_BASE_URL: `${modelServerUrl()}/v1`,
  MODEL_NAME: "fake-vision",
});

async function upload(name: string, type: string, bytes?: Uint8Array): Promise<string> {
  const fd = new FormData();
  fd.append("file", new File([bytes ?? receiptFixture(name)], name, { type }));
  const res = await call("/api/v1/attachments", { method: "POST", rawBody: fd, now: NOW });
  if (res.status !== 200) throw new Error(res.text);
  return res.body.id;
}

// Consent and a route: document parsing goes to the hosted model API (the fake model server).
const consent = (on: boolean) =>
  call("/api/v1/config", {
    method: "PUT",
    body: { ai_receipt_parsing_enabled: on, document_parsing_provider: "hosted" },
  });
const parse = (id: string) =>
  call(`/api/v1/attachments/${id}/parse`, { method: "POST", env: modelEnv(), now: NOW });
const row = async (id: string) =>
  (await call("/api/v1/attachments")).body.attachments.find((a: any) => a.id === id);

describe.skipIf(!modelServerUrl())("AI receipt parsing through the fake model server", () => {
  beforeEach(async () => {
    await env.DB.batch(
      ["attachments", "transactions", "activity_log", "app_config"].map((t) =>
        env.DB.prepare(`DELETE FROM ${t}`),
      ),
    );
    m = await fakeModel();
  });

  it("consent off (the default): 422 in the envelope, and nothing is sent", async () => {
    const id = await upload("receipt.jpg", "image/jpeg");
    const res = await parse(id);
    const e = expectEnvelope(res, 422, "VALIDATION_ERROR");
    expect(e.details.errors[0].loc).toEqual(["config", "ai_receipt_parsing_enabled"]);
    expect(await m.calls()).toEqual([]);
    expect((await row(id)).parse_status).toBe("unparsed");
  });

  it("a photo goes as vision input; a good answer is stored with provenance and line items", async () => {
    await consent(true);
    const id = await upload("receipt.jpg", "image/jpeg");
    await m.script([{ kind: "tool", arguments: GOOD }]);
    const counter = countingD1(env.DB);
    const res = await call(`/api/v1/attachments/${id}/parse`, {
      method: "POST",
      env: { ...modelEnv(), DB: counter.db },
      now: NOW,
    });
    expect(res.status, res.text).toBe(200);
    expectEntryInBatch(counter, "attachments");
    expect(res.body.parse_status).toBe("parsed");
    expect(res.body.parse_error).toBeNull();
    expect(res.body.parse_json).toMatchObject({
      merchant: "Corner Bistro",
      date: "2024-10-14",
      total: 30.55,
      currency: "CAD",
      line_items: GOOD.line_items,
      method: "vision",
      provider: "hosted",
      model: "fake-vision",
      parsed_at: NOW,
      schema_version: 1,
    });
    const [chat] = await m.calls();
    expect(chat!.body.tool_choice).toEqual({ type: "function", function: { name: "record_receipt" } });
    const parts = chat!.body.messages[1].content;
    expect(parts.find((p: any) => p.type === "image_url").image_url.url).toMatch(
      /^data:image\/jpeg;base64,\/9j\//,
    );
    const ledger = await call("/api/v1/activity?operation=parseReceipt");
    expect(ledger.body.entries[0]).toMatchObject({ resource_id: id, after: { parse_status: "parsed" } });
  });

  it("the parse feeds the candidates (and their auto-link)", async () => {
    await consent(true);
    const t1 = await seedTx({
      DateFileName: "2024.10.14_19.42_b.eml",
      Amount: 30.55,
      Company: "CORNER BISTRO",
      Category: "restaurant/dining",
    });
    const id = await upload("receipt.png", "image/png");
    await m.script([{ kind: "tool", arguments: GOOD }]);
    expect((await parse(id)).status).toBe(200);
    const res = await call(`/api/v1/attachments/${id}/candidates`, { now: NOW });
    expect(res.body).toMatchObject({ auto_linked: true, candidates: [{ tx_id: t1, tier: 1 }] });
  });

  it("a text PDF goes as its text; a hallucinated total (not printed) fails closed", async () => {
    await consent(true);
    const id = await upload("receipt-text.pdf", "application/pdf");
    await m.script([{ kind: "tool", arguments: { ...GOOD, total: 31.55, line_items: null } }]);
    const bad = await parse(id);
    expect(expectEnvelope(bad, 422, "RECEIPT_UNREADABLE").error).toMatch(/31\.55 does not appear/);
    const failed = await row(id);
    expect(failed).toMatchObject({ parse_status: "failed", parse_json: null });
    expect(failed.parse_error).toMatch(/does not appear/);
    const [chat] = await m.calls();
    expect(chat!.body.messages[1].content).toMatch(/CORNER BISTRO[\s\S]*TOTAL\s+30\.55/);

    await m.script([{ kind: "tool", arguments: GOOD }]);
    const good = await parse(id);
    expect(good.status, good.text).toBe(200);
    expect(good.body).toMatchObject({
      parse_status: "parsed",
      parse_error: null,
      parse_json: { method: "pdf_text", total: 30.55 },
    });
  });

  // Issue 35 finding 5: "Read with AI" on a PDF passes the one PDF guard before pdf.js reads it.
  it("a page-DAG, looping or content-bomb PDF fails in words, fast, and nothing is sent", async () => {
    await consent(true);
    const hostile: [string, Uint8Array, RegExp][] = [
      ["dag.pdf", pageDag(20), /page tree holds more than 30 pages/],
      ["loop.pdf", pageCycle(), /page tree loops back on itself/],
      ["bomb.pdf", contentBomb(10), /draws more than 250,000 operations|inflates to more than/],
    ];
    for (const [name, bytes, words] of hostile) {
      const id = await upload(name, "application/pdf", bytes);
      const t0 = Date.now();
      const res = await parse(id);
      expect(Date.now() - t0, name).toBeLessThan(10_000);
      expect(expectEnvelope(res, 422, "RECEIPT_UNREADABLE").error).toMatch(words);
      expect(await row(id)).toMatchObject({ parse_status: "failed", parse_json: null });
      expect((await row(id)).parse_error).toMatch(words);
    }
    expect(await m.calls()).toHaveLength(0);
  }, 90_000);

  it("a scanned PDF (no text layer) goes to the model as the PDF itself", async () => {
    await consent(true);
    const id = await upload("receipt-scan.pdf", "application/pdf");
    await m.script([{ kind: "tool", arguments: GOOD }]);
    const res = await parse(id);
    expect(res.status, res.text).toBe(200);
    expect(res.body.parse_json.method).toBe("pdf_file");
    const [chat] = await m.calls();
    const file = chat!.body.messages[1].content.find((p: any) => p.type === "file");
    expect(file.file.file_data).toMatch(/^data:application\/pdf;base64,JVBERi0/);
  });

  it("line items that miss the total by more than 0.05 are dropped; the parse stands", async () => {
    await consent(true);
    const id = await upload("receipt.webp", "image/webp");
    const items = [
      { description: "Pasta", amount: 18.5 },
      { description: "Salad", amount: 9.25 },
    ];
    await m.script([{ kind: "tool", arguments: { ...GOOD, line_items: items } }]);
    const res = await parse(id);
    expect(res.status, res.text).toBe(200);
    expect(res.body.parse_json.line_items).toBeUndefined();
    expect(res.body.parse_json.line_items_dropped).toMatch(/27\.75/);
    expect(res.body.parse_json.total).toBe(30.55);
    // Within 0.05 they stay.
    await m.script([
      { kind: "tool", arguments: { ...GOOD, line_items: [...items, { description: "Tax", amount: 2.76 }] } },
    ]);
    expect((await parse(id)).body.parse_json.line_items).toHaveLength(3);
  });

  it.each([
    ["no merchant", { ...GOOD, merchant: null }, /no merchant/],
    ["no date", { ...GOOD, date: "October" }, /no valid date/],
    ["no total", { ...GOOD, total: null }, /no positive total/],
  ])("required fields: %s fails closed", async (_name, args, why) => {
    await consent(true);
    const id = await upload("receipt.jpg", "image/jpeg");
    await m.script([{ kind: "tool", arguments: args as Record<string, unknown> }]);
    expect(expectEnvelope(await parse(id), 422, "RECEIPT_UNREADABLE").error).toMatch(why);
    expect((await row(id)).parse_status).toBe("failed");
  });

  it("a refusal fails closed (422) and is persisted as failed", async () => {
    await consent(true);
    const id = await upload("receipt.jpg", "image/jpeg");
    await m.script([{ kind: "refusal" }]);
    expectEnvelope(await parse(id), 422, "RECEIPT_UNREADABLE");
    expect(await row(id)).toMatchObject({ parse_status: "failed", parse_json: null });
  });

  it("a model API error is 502 and persisted as failed", async () => {
    await consent(true);
    const id = await upload("receipt.jpg", "image/jpeg");
    await m.script([{ kind: "status", status: 500 }]);
    expectEnvelope(await parse(id), 502, "BAD_GATEWAY");
    expect((await row(id)).parse_status).toBe("failed");
  });

  it("a refused key or an unknown model is the configuration: 422 in words, never a 5xx", async () => {
    await consent(true);
    const id = await upload("receipt.jpg", "image/jpeg");
    await m.script([{ kind: "status", status: 401 }]);
    expect(expectEnvelope(await parse(id), 422, "AI_NOT_CONFIGURED").error).toMatch(/refused the key/);
    await m.script([{ kind: "status", status: 404 }]);
    expect(expectEnvelope(await parse(id), 422, "AI_NOT_CONFIGURED").error).toMatch(
      /does not know the chosen model/,
    );
    expect((await row(id)).parse_status).toBe("failed");
  });

  it("a timeout is 504 and persisted as failed", async () => {
    await consent(true);
    const id = await upload("receipt.jpg", "image/jpeg");
    await m.script([{ kind: "slow", ms: 1500, after: { kind: "tool", arguments: GOOD } }]);
    const testEnv = { ...env, ...modelEnv() } as Env;
    const { ctx } = jobCtx(testEnv, systemClock, "test.read_receipt");
    const err = await readReceipt(ctx, { id, deps: { timeoutMs: 300 } }).catch((e) => e);
    expect(err).toMatchObject({ status: 504, code: "GATEWAY_TIMEOUT" });
    expect((await row(id)).parse_status).toBe("failed");
  });

  it("hosted chosen with no model API key: a 4xx in words, never a 5xx (issue 25)", async () => {
    await consent(true);
    const id = await upload("receipt.jpg", "image/jpeg");
    const res = await call(`/api/v1/attachments/${id}/parse`, { method: "POST", env: { MODEL_API_KEY: "" } });
    expect(expectEnvelope(res, 422, "AI_NOT_CONFIGURED").error).toMatch(/no model API key \(MODEL_API_KEY/);
  });
});
