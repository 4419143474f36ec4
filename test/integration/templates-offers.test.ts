// Issue 18, item 6: a validated AI extraction of an unknown bank's alert is offered as a template;
// accepting it teaches the journal that bank with nothing typed.
import { env } from "cloudflare:test";
import { beforeEach, describe, expect, it } from "vitest";
import { countingD1 } from "../../bench/lib/d1-count";
import type { Env } from "../../src/env";
import { ingestEmail } from "../../src/ingest";
import type { IngestSettings } from "../../src/ingest/types";
import { call, expectEnvelope } from "../helpers/http";
import { expectEntryInBatch } from "../helpers/ledger-batch";
import { fakeModel, modelServerUrl } from "../helpers/fake-model-client";
import { resetIngestTables, testDeps } from "../fixtures/emails/deps";
import { maple } from "../fixtures/emails/unknown-banks/banks";
import { buildMime } from "../fixtures/emails/builders";

const E = env as unknown as Env;
const AI_ON: Partial<IngestSettings> = { aiCategorizationEnabled: true, aiExtractionEnabled: true };

beforeEach(async () => {
  await resetIngestTables();
  await E.DB.batch(["alert_templates", "activity_log"].map((t) => E.DB.prepare(`DELETE FROM ${t}`)));
});

describe.skipIf(!modelServerUrl())("templates offered from AI rescues", () => {
  it("offers the rescued alert's template, accepting saves it, the next alert needs no model", async () => {
    const m = await fakeModel();
    await m.script([
      { kind: "tool", arguments: { amount: 12.34, company: "BLUE BOTTLE", transaction_type: "purchase" } },
      { kind: "tool", arguments: { category: "Restaurant/Dining" } },
    ]);
    const rescued = await ingestEmail(
      maple({ id: "ai1", amount: "12.34", merchant: "BLUE BOTTLE", printed: "Oct 12, 2026" }),
      testDeps({ ai: m.provider, settings: AI_ON }),
    );
    expect(rescued).toMatchObject({ status: "created", recovered_by_ai: true });

    const listed = countingD1(env.DB);
    const offers = await call("/api/v1/templates/offers", { env: { DB: listed.db } });
    expect(offers.body.count).toBe(1);
    const offer = offers.body.offers[0];
    expect(offer).toMatchObject({
      sender_domain: "notify.maplecu.example",
      suggested_institution: "Maplecu",
      amount: 12.34,
      company: "BLUE BOTTLE",
      example: "You spent $[amount] at [merchant] on [date] at [time].",
    });

    const [accept, revert] = [countingD1(env.DB), countingD1(env.DB)];
    const accepted = await call(`/api/v1/templates/offers/${offer.tx_id}/accept`, {
      method: "POST",
      body: { institution: "Maple CU" },
      env: { DB: accept.db },
    });
    expect(accepted.status, accepted.text).toBe(200);
    expectEntryInBatch(accept, "alert_templates");
    // No one waits on an accept: auth, the row, the settings (with its sender's templates), the insert.
    expect(accept.trips.filter((t) => !t.background).length).toBeLessThanOrEqual(4);
    expect(accepted.body).toMatchObject({ name: "Maple CU purchase", institution: "Maple CU" });
    // Taught now: the listed row's sender's template (read with the settings) reads it, no offer.
    expect((await call("/api/v1/templates/offers")).body.count).toBe(0);
    expectEnvelope(
      await call(`/api/v1/templates/offers/${offer.tx_id}/accept`, { method: "POST", body: {} }),
      409,
      "CONFLICT",
    );

    // No model this time: the learned template reads it.
    const next = await ingestEmail(
      maple({ id: "ai2", amount: "8.00", merchant: "TEA SHOP", printed: "Oct 13, 2026" }),
      testDeps(),
    );
    expect(next).toMatchObject({
      status: "created",
      tx: { Institution: "Maple CU", Amount: 800, Company: "TEA SHOP" },
    });

    // Reverting the accept removes the template again.
    const undo = await call(`/api/v1/activity/${accepted.headers.get("x-activity-id")}/revert`, {
      method: "POST",
      env: { DB: revert.db },
    });
    expect(undo.status, undo.text).toBe(200);
    expectEntryInBatch(revert, "alert_templates");
    expect((await call("/api/v1/templates")).body.count).toBe(0);
  });

  it("offers nothing when the AI's values are not printed in the email", async () => {
    const m = await fakeModel();
    await m.script([
      {
        kind: "tool",
        arguments: { amount: 12.34, company: "Blue Bottle Coffee Roasters", transaction_type: "purchase" },
      },
      { kind: "tool", arguments: { category: "Restaurant/Dining" } },
    ]);
    await ingestEmail(
      maple({ id: "ai3", amount: "12.34", merchant: "BLUE BOTTLE", printed: "Oct 12, 2026" }),
      testDeps({ ai: m.provider, settings: AI_ON }),
    );
    expect((await call("/api/v1/templates/offers")).body).toEqual({ count: 0, offers: [] });
    expectEnvelope(
      await call("/api/v1/templates/offers/bad!/accept", { method: "POST", body: {} }),
      404,
      "NOT_FOUND",
    );
  });
});

// Issue 37, point 5: an alert no template reads, quarantined, is read by the model when the person
// asks in Needs review; every value is checked against the email's text and the reading is only
// offered: nothing is saved until the person confirms it through the ordinary resolve, which
// teaches the template as a hand resolve does.
const vltava = (a: { id: string; amount: string; merchant: string; printed: string }) =>
  buildMime({
    from: "Banka Vltava <info@alerty.vltava.example>",
    to: "sam@example.com",
    subject: "Platba kartou",
    date: "Mon, 12 Oct 2026 16:20:00 +0200",
    messageId: `<${a.id}@vltava.example>`,
    body: [
      "Dobrý den,",
      "",
      `kartou 5.9.2026 14:05 jste zaplatili ${a.amount} CZK u obchodníka ${a.merchant}.`,
      "Zůstatek na účtu: 48 120,00 CZK",
      "",
      "Vaše Banka Vltava | neodpovídejte na tento e-mail",
    ].join("\n"),
  });

describe.skipIf(!modelServerUrl())(
  "the model's reading of a quarantined alert, offered as a template",
  () => {
    const reading = {
      amount: 1234.5,
      currency: "CZK",
      date: "2026-09-05",
      time: "14:05",
      merchant: "Kavárna Na Rohu s.r.o.",
      transaction_type: "purchase",
    };
    async function setUp(consent = true) {
      const m = await fakeModel();
      const put = await call("/api/v1/config", {
        method: "PUT",
        body: {
          categorization_provider: "hosted",
          ai_extraction_enabled: consent,
          ai_categorization_enabled: false,
        },
      });
      expect(put.status, put.text).toBe(200);
      const modelEnv = { MODEL_API_KEY: m.key, MODEL_BASE_URL: `${modelServerUrl()}/v1` };
      const propose = (id: string) =>
        call(`/api/v1/parse-failures/${id}/template-proposal`, { env: modelEnv });
      return { m, propose };
    }
    const quarantine = async (id: string, amount = "1 234,50", merchant = "Kavárna Na Rohu s.r.o.") => {
      const out = await ingestEmail(vltava({ id, amount, merchant, printed: "" }), testDeps());
      expect(out.status).toBe("quarantined");
      return (out as { id: string }).id;
    };
    beforeEach(async () => {
      await E.DB.prepare("DELETE FROM app_config").run();
    });

    it("offers the checked reading; nothing is saved until confirmed; confirming teaches the bank", async () => {
      const { m, propose } = await setUp();
      const id = await quarantine("v1");
      await m.script([{ kind: "tool", arguments: reading }]);
      const res = await propose(id);
      expect(res.status, res.text).toBe(200);
      expect(res.body).toMatchObject({
        asked: true,
        reason: null,
        proposal: {
          date: "2026-09-05",
          time: "14:05",
          amount: 1234.5,
          currency: "CZK",
          company: "Kavárna Na Rohu s.r.o.",
          transaction_type: "purchase",
          institution: "Vltava",
          model: "gpt-4o-mini",
          template_name: "Vltava purchase",
          template_reason: null,
        },
      });
      const [sent] = await m.calls();
      expect(sent!.body.tool_choice.function.name).toBe("read_alert_values");
      expect(sent!.body.messages.at(-1).content).toContain("u obchodníka Kavárna Na Rohu s.r.o.");
      // Offered only: no template, no transaction, the email still waits in Needs review.
      expect((await call("/api/v1/templates")).body.count).toBe(0);
      expect((await call(`/api/v1/parse-failures/${id}`)).body.status).toBe("quarantined");
      expect((await E.DB.prepare("SELECT COUNT(*) AS n FROM transactions").first<{ n: number }>())?.n).toBe(
        0,
      );

      const p = res.body.proposal;
      const confirmed = await call(`/api/v1/parse-failures/${id}/resolve`, {
        method: "POST",
        body: {
          date: p.date,
          time: p.time,
          amount: p.amount,
          company: p.company,
          institution: p.institution,
          transaction_type: p.transaction_type,
          proposed: true,
        },
      });
      expect(confirmed.status, confirmed.text).toBe(200);
      expect(confirmed.body).toMatchObject({
        status: "resolved",
        template_name: "Vltava purchase",
        template_reason: null,
      });
      const entry = (await call("/api/v1/activity")).body.entries.find((e: any) => e.resource_id === id);
      expect(entry.summary).toMatch(
        /^resolved as Kavárna Na Rohu s\.r\.o\. .*; values proposed by the model$/,
      );
      // The bank's next alert is read by the template: no model, the printed day, the full name.
      const next = await ingestEmail(
        vltava({ id: "v2", amount: "86,00", merchant: "Pekárna Kolář a.s.", printed: "" }),
        testDeps(),
      );
      expect(next).toMatchObject({
        status: "created",
        tx: { Institution: "Vltava", Amount: 8600, Company: "Pekárna Kolář a.s." },
      });
      expect(await m.calls()).toHaveLength(1);
      // Resolved: no second proposal.
      expectEnvelope(await propose(id), 409, "CONFLICT");
    });

    it("refuses a reading whose values the email does not print, in words; never a 500", async () => {
      const { m, propose } = await setUp();
      const id = await quarantine("v3");
      await m.script([
        { kind: "tool", arguments: { ...reading, merchant: "Kavárna U Rohu" } },
        { kind: "tool", arguments: { ...reading, amount: 1243.5 } },
        { kind: "tool", arguments: { ...reading, date: "2026-09-06" } },
        { kind: "tool", arguments: { ...reading, currency: "EUR" } },
        { kind: "tool", arguments: { ...reading, merchant: null } },
        { kind: "malformed" },
        { kind: "status", status: 500 },
      ]);
      const reasons: string[] = [];
      for (let i = 0; i < 7; i++) {
        const res = await propose(id);
        expect(res.status, res.text).toBe(200);
        expect(res.body).toMatchObject({ asked: true, proposal: null });
        reasons.push(res.body.reason);
      }
      expect(reasons).toEqual([
        expect.stringMatching(/refused: the merchant “Kavárna U Rohu” does not appear in the email; enter/),
        expect.stringMatching(/refused: the amount .*1,243\.50 does not appear in the email/),
        expect.stringMatching(/refused: the date 2026-09-06 does not appear in the email/),
        expect.stringMatching(/refused: the email prints the amount in CZK, not in EUR/),
        expect.stringMatching(/refused: it named no merchant or payee/),
        expect.stringMatching(/refused: the model's answer could not be used/),
        expect.stringMatching(/refused: the provider answered with an error/),
      ]);
      expect((await call("/api/v1/templates")).body.count).toBe(0);
    });

    it("without the consent or a provider nothing reaches the model", async () => {
      const { m, propose } = await setUp(false);
      const id = await quarantine("v4");
      const off = await propose(id);
      expect(off.body).toMatchObject({ asked: false, proposal: null });
      expect(off.body.reason).toMatch(/“Read unknown alerts with AI” is off/);
      await call("/api/v1/config", {
        method: "PUT",
        body: { categorization_provider: "disabled", ai_extraction_enabled: true },
      });
      expect((await propose(id)).body.reason).toMatch(/Categorization is turned off/);
      expect(await m.calls()).toHaveLength(0);
      expectEnvelope(await propose("pf_missing"), 404, "NOT_FOUND");
    });
  },
);
