import { env } from "cloudflare:test";
import { beforeEach, describe, expect, it } from "vitest";
import { ingestEmail } from "../../src/ingest";
import type { IngestSettings } from "../../src/ingest/types";
import { call } from "../helpers/http";
import { buildMime } from "../fixtures/emails/builders";
import {
  allFailures,
  allTransactions,
  recordingNotifier,
  resetIngestTables,
  testDeps,
} from "../fixtures/emails/deps";
import { type Behaviour, type FakeModel, fakeModel, modelServerUrl } from "../helpers/fake-model-client";

const now = "2024-10-20T12:00:00Z";
const cibc = (company = "FRESH MART 0123", amount = "$12.40") =>
  buildMime({
    from: "alerts@cibc.com",
    body: `Dear Carlos,\n You've recently made a purchase with your CIBC card ending in 2210 for ${amount} at ${company}.\nCIBC`,
  });
/** An alert no deterministic parser reads (unknown bank). */
const unknownAlert = (
  body = "Transaction alert: your card was charged $23.75 at CORNER BAKERY today.",
  id = "<u@x>",
) => buildMime({ from: "Alerts <alerts@tangerine.example>", subject: "Card activity", body, messageId: id });

const AI_ON: Partial<IngestSettings> = { aiCategorizationEnabled: true, aiExtractionEnabled: true };

async function run(
  m: FakeModel,
  raw: Uint8Array,
  queue: Behaviour[],
  settings: Partial<IngestSettings> = AI_ON,
) {
  await m.script(queue);
  return ingestEmail(raw, testDeps({ ai: m.provider, settings }));
}

describe.skipIf(!modelServerUrl())("categorization through the fake model", () => {
  beforeEach(() => resetIngestTables());

  it("good answer: category from the forced call, constrained to the 39 defaults", async () => {
    const m = await fakeModel();
    const out = await run(m, cibc(), [{ kind: "tool", arguments: { category: "Groceries" } }]);
    expect(out.status).toBe("created");
    const [row] = await allTransactions();
    expect(row!.Category).toBe("groceries");
    expect(row!.CategoryAudit).toMatchObject({ source: "ai", model: "fake-chat", fallback_reason: null });
    const chat = (await m.calls()).find((c) => c.path.endsWith("/chat/completions"))!;
    expect(chat.body.tool_choice).toEqual({ type: "function", function: { name: "categorize_transaction" } });
    const allowed = chat.body.tools[0].function.parameters.properties.category.enum;
    expect(allowed).toHaveLength(39);
    expect(allowed).toContain("Restaurant/Dining");
    expect(JSON.parse(chat.body.messages[1].content)).toMatchObject({
      amount: 12.4,
      company: "FRESH MART 0123",
    });
  });

  it("the stored category list replaces the defaults", async () => {
    await env.DB.batch(
      ["Food", "Fun"].map((n, i) =>
        env.DB.prepare("INSERT INTO categories (name, position) VALUES (?, ?)").bind(n, i),
      ),
    );
    const m = await fakeModel();
    await run(m, cibc(), [{ kind: "tool", arguments: { category: "Food" } }]);
    const chat = (await m.calls()).find((c) => c.path.endsWith("/chat/completions"))!;
    expect(chat.body.tools[0].function.parameters.properties.category.enum).toEqual([
      "Food",
      "Fun",
      "Miscellaneous",
    ]);
    expect((await allTransactions())[0]!.Category).toBe("food");
  });

  it.each<[string, Behaviour, string]>([
    ["refusal", { kind: "refusal" }, "ai_refusal"],
    ["no tool call", { kind: "no_tool_call" }, "ai_no_tool_call"],
    ["no completion", { kind: "empty_choices" }, "ai_no_tool_call"],
    ["malformed arguments", { kind: "malformed" }, "ai_malformed"],
    [
      "category outside the list",
      { kind: "tool", arguments: { category: "Yachts" } },
      "category_not_in_list",
    ],
    ["HTTP 500", { kind: "status", status: 500 }, "ai_http"],
    [
      "slow (timeout)",
      { kind: "slow", ms: 1500, after: { kind: "tool", arguments: { category: "Groceries" } } },
      "ai_timeout",
    ],
  ])("%s → Miscellaneous with the reason stamped", async (_n, behaviour, reason) => {
    const m = await fakeModel({ timeoutMs: 500 });
    const out = await run(m, cibc(), [behaviour]);
    expect(out.status).toBe("created");
    const [row] = await allTransactions();
    expect(row!.Category).toBe("miscellaneous");
    expect(row!.CategoryAudit).toMatchObject({
      source: "fallback",
      fallback_reason: reason,
      model: "fake-chat",
    });
  });

  it("three hard provider errors in a row mark AI categorization degraded; a success clears it", async () => {
    const m = await fakeModel();
    for (let i = 0; i < 3; i++)
      await run(m, cibc(`SHOP ${i}`, `$${i + 1}.00`), [{ kind: "status", status: 503 }]);
    const state = await env.DB.prepare(
      "SELECT value FROM kv_state WHERE key = 'ai_categorization'",
    ).first<string>("value");
    expect(JSON.parse(state!)).toMatchObject({ status: "degraded", consecutive_errors: 3 });
    const health = await call("/api/v1/health", { now });
    expect(health.body.ai_categorization_status).toBe("degraded");
    await run(m, cibc("SHOP OK", "$9.00"), [{ kind: "tool", arguments: { category: "Groceries" } }]);
    const after = await env.DB.prepare(
      "SELECT value FROM kv_state WHERE key = 'ai_categorization'",
    ).first<string>("value");
    expect(JSON.parse(after!)).toEqual({ status: "ok", reason: null, consecutive_errors: 0 });
  });

  it("AI categorization off: no model call, overrides still apply", async () => {
    await env.DB.prepare(
      "INSERT INTO overrides (company, category, created_at, updated_at) VALUES ('Fresh Mart', 'Groceries', ?, ?)",
    )
      .bind(now, now)
      .run();
    const m = await fakeModel();
    await run(m, cibc(), [], { aiCategorizationEnabled: false });
    await run(m, cibc("OTHER SHOP", "$3.00"), [], { aiCategorizationEnabled: false });
    const rows = await allTransactions();
    expect(rows.find((r) => r.Company === "FRESH MART 0123")!.CategoryAudit).toMatchObject({
      source: "override_normalized",
    });
    expect(rows.find((r) => r.Company === "OTHER SHOP")!.CategoryAudit).toMatchObject({
      fallback_reason: "ai_disabled",
    });
    expect(await m.calls()).toHaveLength(0);
  });

  it("tier 3 fuzzy: cosine ≥ 0.90 over cached embeddings wins before the model", async () => {
    await env.DB.prepare(
      "INSERT INTO overrides (company, category, created_at, updated_at) VALUES ('Blue Bottle Coffee', 'Coffee & Cafes', ?, ?)",
    )
      .bind(now, now)
      .run();
    const m = await fakeModel();
    await m.script([], { "blue bottle cofee": [1, 0.1, 0], "blue bottle coffee": [1, 0.12, 0] });
    await ingestEmail(cibc("BLUE BOTTLE COFEE", "$6.00"), testDeps({ ai: m.provider, settings: AI_ON }));
    const [row] = await allTransactions();
    expect(row!.Category).toBe("coffee & cafes");
    expect(row!.CategoryAudit).toMatchObject({
      source: "override_fuzzy",
      tier: 3,
      matched_rule: "Blue Bottle Coffee",
    });
    expect(row!.CategoryAudit.confidence).toBeGreaterThanOrEqual(0.9);
    const cached = await env.DB.prepare(
      "SELECT COUNT(*) AS n FROM embeddings WHERE model = 'fake-embed'",
    ).first<number>("n");
    expect(cached).toBe(2);
    expect((await m.calls()).some((c) => c.path.endsWith("/chat/completions"))).toBe(false);
  });

  it("fuzzy below the threshold falls through to the model", async () => {
    await env.DB.prepare(
      "INSERT INTO overrides (company, category, created_at, updated_at) VALUES ('Blue Bottle Coffee', 'Coffee & Cafes', ?, ?)",
    )
      .bind(now, now)
      .run();
    const m = await fakeModel();
    await m.script([{ kind: "tool", arguments: { category: "Hobbies" } }], {
      "hobby town": [0, 1, 0],
      "blue bottle coffee": [1, 0, 0],
    });
    await ingestEmail(cibc("HOBBY TOWN", "$6.00"), testDeps({ ai: m.provider, settings: AI_ON }));
    expect((await allTransactions())[0]!.CategoryAudit).toMatchObject({ source: "ai" });
  });
});

describe.skipIf(!modelServerUrl())("AI extraction fallback and the relevance gate", () => {
  beforeEach(() => resetIngestTables());

  it("a validated extraction is recovered: institution Other, ExtractionAudit, attention queue, notified", async () => {
    const m = await fakeModel();
    const notify = recordingNotifier();
    await m.script([
      { kind: "tool", arguments: { amount: 23.75, company: "Corner Bakery", transaction_type: "purchase" } },
      { kind: "tool", arguments: { category: "Restaurant/Dining" } },
    ]);
    const out = await ingestEmail(unknownAlert(), testDeps({ ai: m.provider, settings: AI_ON, notify }));
    expect(out).toMatchObject({ status: "created", recovered_by_ai: true });
    const [row] = await allTransactions();
    expect(row).toMatchObject({
      Institution: "Other",
      Amount: 23.75,
      Company: "Corner Bakery",
      Category: "restaurant/dining",
    });
    expect(row!.ExtractionAudit).toEqual({
      method: "ai_fallback",
      model: "fake-chat",
      validated: true,
      extracted_at: now.replace("Z", ".000Z"),
      schema_version: 1,
      currency: null,
      currency_printed: "$",
    });
    const attention = await env.DB.prepare("SELECT * FROM attention_queue").all();
    expect(attention.results).toEqual([
      expect.objectContaining({
        ForwardedTo: row!.ForwardedTo,
        DateFileName: row!.DateFileName,
        reason: "ai_extraction",
      }),
    ]);
    expect(notify.sent.map((n) => n.kind)).toEqual(["transaction"]);
    expect(await allFailures()).toHaveLength(0);
    const calls = await m.calls();
    expect(calls[0]!.body.tool_choice.function.name).toBe("extract_transaction");
  });

  it("no rescue without both switches: consent alone is not enough when AI categorization is off", async () => {
    const m = await fakeModel();
    const out = await ingestEmail(
      unknownAlert(),
      testDeps({ ai: m.provider, settings: { ...AI_ON, aiCategorizationEnabled: false } }),
    );
    expect(out).toMatchObject({ status: "quarantined" });
    expect(await m.calls()).toHaveLength(0);
    expect(await allTransactions()).toHaveLength(0);
  });

  it.each<[string, Behaviour, string]>([
    [
      "hallucinated amount",
      { kind: "tool", arguments: { amount: 32.75, company: "Corner Bakery", transaction_type: "purchase" } },
      "ai_validation_failed",
    ],
    [
      "hallucinated company",
      {
        kind: "tool",
        arguments: { amount: 23.75, company: "Bakery Corner Ltd", transaction_type: "purchase" },
      },
      "ai_validation_failed",
    ],
    ["refusal", { kind: "refusal" }, "ai_extraction_failed"],
    ["no tool call", { kind: "no_tool_call" }, "ai_extraction_failed"],
    ["malformed arguments", { kind: "malformed" }, "ai_extraction_failed"],
    ["HTTP 500", { kind: "status", status: 500 }, "ai_extraction_failed"],
    ["slow (timeout)", { kind: "slow", ms: 1500 }, "ai_extraction_failed"],
  ])("%s → quarantined as %s", async (_n, behaviour, stage) => {
    const m = await fakeModel({ timeoutMs: 500 });
    const out = await run(m, unknownAlert(), [behaviour]);
    expect(out).toMatchObject({ status: "quarantined", failure_stage: stage });
    const [f] = await allFailures();
    expect(f!.failure_stage).toBe(stage);
    expect(JSON.parse(f!.detail).error).toBeTruthy();
    expect(await allTransactions()).toHaveLength(0);
  });

  it("the classifier decides mail the cheap checks do not catch: no → ignored", async () => {
    const m = await fakeModel();
    const out = await run(m, unknownAlert("Thanks for your order, it ships tomorrow."), [
      { kind: "tool", arguments: { is_transaction_alert: false } },
    ]);
    expect(out).toEqual({ status: "ignored", reason: "classifier_no" });
    const calls = await m.calls();
    expect(calls).toHaveLength(1);
    expect(calls[0]!.body.tool_choice.function.name).toBe("detect_if_transaction_alert");
  });

  it("classifier yes, then extraction; classifier errors count as yes", async () => {
    const m = await fakeModel();
    const yes = await run(m, unknownAlert("Payment posted: 41.00 at PARKING LOT 7.", "<y@x>"), [
      { kind: "tool", arguments: { is_transaction_alert: true } },
      { kind: "tool", arguments: { amount: 41, company: "PARKING LOT 7", transaction_type: "purchase" } },
    ]);
    expect(yes.status).toBe("created");
    const err = await run(m, unknownAlert("Something about 12.00 maybe", "<e@x>"), [
      { kind: "status", status: 500 },
      { kind: "status", status: 500 },
    ]);
    expect(err).toMatchObject({ status: "quarantined", failure_stage: "ai_extraction_failed" });
    const [f] = await allFailures();
    expect(JSON.parse(f!.detail)).toMatchObject({
      relevance: "classifier_error",
      alert_classifier_result: null,
    });
  });

  it("extraction consent off: no model call, quarantined as no_parser_match", async () => {
    const m = await fakeModel();
    const out = await run(m, unknownAlert(), [], {
      aiCategorizationEnabled: true,
      aiExtractionEnabled: false,
    });
    expect(out).toMatchObject({ status: "quarantined", failure_stage: "no_parser_match" });
    expect(await m.calls()).toHaveLength(0);
  });

  it("an AI-recovered withdrawal needs no company", async () => {
    const m = await fakeModel();
    const out = await run(m, unknownAlert("A withdrawal of $60.00 was debited from your chequing account."), [
      { kind: "tool", arguments: { amount: 60, company: null, transaction_type: "withdrawal" } },
    ]);
    expect(out.status).toBe("created");
    expect((await allTransactions())[0]).toMatchObject({
      Company: null,
      TransactionType: "withdrawal",
      Institution: "Other",
    });
  });
});
