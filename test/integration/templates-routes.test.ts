// Issue 18: the learned templates' routes (list, rename, delete with undo, dry-run test) and their
// round trip through the data export and import.
import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { beforeEach, describe, expect, it } from "vitest";
import { countingD1 } from "../../bench/lib/d1-count";
import { createApp } from "../../src/app";
import type { Env } from "../../src/env";
import { ingestEmail } from "../../src/ingest";
import { call, expectEnvelope } from "../helpers/http";
import { expectEntryInBatch } from "../helpers/ledger-batch";
import { resetIngestTables, testDeps } from "../fixtures/emails/deps";
import { maple } from "../fixtures/emails/unknown-banks/banks";

const E = env as unknown as Env;
const text = (raw: Uint8Array) => new TextDecoder().decode(raw);

async function learnMaple(): Promise<string> {
  const out = await ingestEmail(
    maple({ id: "t1", amount: "42.00", merchant: "CORNER STORE", printed: "Oct 12, 2026" }),
    testDeps(),
  );
  if (out.status !== "quarantined") throw new Error(out.status);
  const res = await call(`/api/v1/parse-failures/${out.id}/resolve`, {
    method: "POST",
    body: { date: "2026-10-12", amount: 42, company: "Corner Store", institution: "Maple CU" },
  });
  expect(res.body.template_id, res.text).toBeTruthy();
  return res.body.template_id;
}

beforeEach(async () => {
  await resetIngestTables();
  await E.DB.batch(["alert_templates", "activity_log"].map((t) => E.DB.prepare(`DELETE FROM ${t}`)));
});

describe("/api/v1/templates", () => {
  it("lists a template with its masked example (no personal data) and counts its reads", async () => {
    const id = await learnMaple();
    await ingestEmail(
      maple({ id: "t2", amount: "3.50", merchant: "BUS", printed: "Oct 13, 2026" }),
      testDeps(),
    );
    const res = await call("/api/v1/templates");
    expect(res.status).toBe(200);
    expect(res.body.count).toBe(1);
    const t = res.body.templates[0];
    expect(t).toMatchObject({
      id,
      name: "Maple CU purchase",
      institution: "Maple CU",
      sender_domain: "notify.maplecu.example",
      subject_words: ["card", "purchase", "alert"],
      transaction_type: "purchase",
      example: "You spent $[amount] at [merchant] on [date] at [time].",
      match_count: 1,
    });
    expect(t.last_matched_at).toBeTruthy();
    const stored = await E.DB.prepare("SELECT pattern, example FROM alert_templates").first<any>();
    for (const secret of ["CORNER STORE", "42.00", "Sam", "4821"]) {
      expect(stored.pattern).not.toContain(secret);
      expect(stored.example).not.toContain(secret);
    }
  });

  it("renames, deletes, and a revert brings the deleted template back", async () => {
    const id = await learnMaple();
    const renamed = await call(`/api/v1/templates/${id}`, { method: "PATCH", body: { name: "Maple Visa" } });
    expect(renamed.status).toBe(200);
    expect(renamed.body.name).toBe("Maple Visa");
    expectEnvelope(
      await call(`/api/v1/templates/${id}`, { method: "PATCH", body: { name: "" } }),
      422,
      "VALIDATION_ERROR",
    );
    expectEnvelope(
      await call("/api/v1/templates/tpl_nope", { method: "PATCH", body: { name: "x" } }),
      404,
      "NOT_FOUND",
    );

    const del = await call(`/api/v1/templates/${id}`, { method: "DELETE" });
    expect(del.status).toBe(204);
    expect((await call("/api/v1/templates")).body.count).toBe(0);
    // Without it, that bank's alerts are quarantined again.
    const again = await ingestEmail(
      maple({ id: "t3", amount: "1.00", merchant: "GUM", printed: "Oct 14, 2026" }),
      testDeps(),
    );
    expect(again.status).toBe("quarantined");
    const revert = countingD1(env.DB);
    const undo = await call(`/api/v1/activity/${del.headers.get("x-activity-id")}/revert`, {
      method: "POST",
      env: { DB: revert.db },
    });
    expect(undo.status, undo.text).toBe(200);
    expectEntryInBatch(revert, "alert_templates");
    expect((await call("/api/v1/templates")).body.templates.map((t: any) => [t.id, t.name])).toEqual([
      [id, "Maple Visa"],
    ]);
    expectEnvelope(await call("/api/v1/templates/tpl_nope", { method: "DELETE" }), 404, "NOT_FOUND");
  });

  it("reverting a rename after the template read an email restores the name and keeps the count", async () => {
    const id = await learnMaple();
    const renamed = await call(`/api/v1/templates/${id}`, { method: "PATCH", body: { name: "Visa" } });
    await ingestEmail(
      maple({ id: "r2", amount: "6.00", merchant: "CAFE", printed: "Oct 13, 2026" }),
      testDeps(),
    );
    const counter = countingD1(env.DB);
    const undo = await call(`/api/v1/activity/${renamed.headers.get("x-activity-id")}/revert`, {
      method: "POST",
      env: { DB: counter.db },
    });
    expect(undo.status, undo.text).toBe(200);
    // The counters moved since the rename: no edit of the person's, so the revert is not stale.
    const [t] = (await call("/api/v1/templates")).body.templates;
    expect([t.name, t.match_count]).toEqual(["Maple CU purchase", 1]);
    // Renamed again since: the older rename's revert is stale.
    const first = await call(`/api/v1/templates/${id}`, { method: "PATCH", body: { name: "One" } });
    await call(`/api/v1/templates/${id}`, { method: "PATCH", body: { name: "Two" } });
    const stale = expectEnvelope(
      await call(`/api/v1/activity/${first.headers.get("x-activity-id")}/revert`, { method: "POST" }),
      409,
      "stale_revert",
    );
    expect(stale.details.changed_fields).toContain("name");
  });

  it("test answers what the template would extract, or why not, and writes nothing", async () => {
    const id = await learnMaple();
    const counter = countingD1(E.DB);
    const ok = await call(`/api/v1/templates/${id}/test`, {
      method: "POST",
      env: { DB: counter.db },
      body: {
        raw: text(
          maple({
            id: "t4",
            amount: "1,999.99",
            merchant: "BEST BUY",
            printed: "Oct 20, 2026",
            time: "8:15 PM",
          }),
        ),
      },
    });
    // No one waits on a dry run: auth, the template, the settings (the recipient's mapping), the entry.
    expect(counter.trips.filter((t) => !t.background).length).toBeLessThanOrEqual(4);
    expect(ok.body).toEqual({
      matched: true,
      reason: null,
      amount: 1999.99,
      company: "BEST BUY",
      date: "2026-10-20",
      time: "20:15",
      institution: "Maple CU",
      transaction_type: "purchase",
    });
    const changed = await call(`/api/v1/templates/${id}/test`, {
      method: "POST",
      body: {
        raw: text(maple({ id: "t5", amount: "5.00", merchant: "X", printed: "Oct 20, 2026" }, "You paid")),
      },
    });
    expect(changed.body).toMatchObject({ matched: false, amount: null, company: null });
    expect(changed.body.reason).toMatch(/the anchor "You spent \$" before the amount was not found/);
    expect((await E.DB.prepare("SELECT COUNT(*) AS n FROM transactions").first<any>()).n).toBe(1);
    const raw = text(maple({ id: "t6", amount: "5.00", merchant: "X", printed: "Oct 20, 2026" }));
    expectEnvelope(
      await call("/api/v1/templates/tpl_nope/test", { method: "POST", body: { raw } }),
      404,
      "NOT_FOUND",
    );
    expectEnvelope(
      await call(`/api/v1/templates/${id}/test`, { method: "POST", body: {} }),
      422,
      "VALIDATION_ERROR",
    );
  });

  it("is in the data export and restored by the import", async () => {
    const id = await learnMaple();
    const ctx = createExecutionContext();
    const res = await createApp().fetch(new Request("http://localhost/api/v1/data/export"), env, ctx);
    const zip = new Uint8Array(await res.arrayBuffer());
    await waitOnExecutionContext(ctx);
    expect(res.status).toBe(200);
    const before = await E.DB.prepare("SELECT * FROM alert_templates").all();
    await E.DB.prepare("DELETE FROM alert_templates").run();
    const form = new FormData();
    form.set("file", new File([zip], "backup.zip", { type: "application/zip" }));
    const preview = await call("/api/v1/data/import/preview", { method: "POST", rawBody: form });
    expect(preview.status, preview.text).toBe(200);
    const commit = await call("/api/v1/data/import/commit", {
      method: "POST",
      body: { token: preview.body.token, strategy: "skip" },
    });
    expect(commit.status, commit.text).toBe(200);
    expect((await E.DB.prepare("SELECT * FROM alert_templates").all()).results).toEqual(before.results);
    // The restored template reads the bank's alerts again.
    const out = await ingestEmail(
      maple({ id: "t6", amount: "2.25", merchant: "TEA", printed: "Oct 15, 2026" }),
      testDeps(),
    );
    expect(out).toMatchObject({ status: "created", tx: { ExtractionAudit: { model: id } } });
  });
});
