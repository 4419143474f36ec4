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
    // Auth, the row with the settings (its mapping and sender's templates keyed by it), the insert.
    expect(accept.trips.filter((t) => !t.background)).toHaveLength(3);
    expect(accept.trips[1]!.sql.some((q) => /from "alert_templates"/.test(q))).toBe(true);
    expect(accepted.body).toMatchObject({ name: "Maple CU purchase", institution: "Maple CU" });
    // Taught now: the listed row's sender's template (read with the settings) reads it, no offer;
    // with that batch down, each read on its own says the same.
    for (const hooks of [
      {},
      { failBatch: (sql: string[]) => sql.some((q) => /from "alert_templates"/.test(q)) },
    ]) {
      const after = countingD1(env.DB, hooks);
      expect((await call("/api/v1/templates/offers", { env: { DB: after.db } })).body.count).toBe(0);
    }
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
