// SPEC.md step 7 and Events: a new transaction whose company is on the blocked-company list sends
// no notification. Issue 23 point 5: that list has an API (list, block, unblock; journaled and
// revertable) and is part of the data export.
import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { unzipSync } from "fflate";
import { beforeEach, describe, expect, it } from "vitest";
import { countingD1 } from "../../bench/lib/d1-count";
import { createApp } from "../../src/app";
import type { Env } from "../../src/env";
import { ingestEmail } from "../../src/ingest";
import { loadIngestSettings } from "../../src/ingest/settings";
import { buildMime } from "../fixtures/emails/builders";
import { recordingNotifier, resetIngestTables, testDeps } from "../fixtures/emails/deps";
import { call, expectEnvelope } from "../helpers/http";
import { expectEntryInBatch } from "../helpers/ledger-batch";

const NOW = "2024-10-20T12:00:00Z";
const path = (company: string) => `/api/v1/blocked-companies/${encodeURIComponent(company)}`;
const block = (company: string) => call(path(company), { method: "PUT", now: NOW });
const list = () => call("/api/v1/blocked-companies", { now: NOW });
const alert = (company: string, amount: string) =>
  buildMime({
    from: "alerts@cibc.com",
    body: `Dear Carlos,\n You've recently made a purchase with your CIBC card ending in 2210 for ${amount} at ${company}.\nCIBC`,
  });

beforeEach(async () => {
  await resetIngestTables();
  await env.DB.batch(["blocked_companies", "activity_log"].map((t) => env.DB.prepare(`DELETE FROM ${t}`)));
});

describe("SPEC step 7: the blocked-company list has an API", () => {
  it("block (idempotent, any case), list, unblock (404 when absent)", async () => {
    expect((await list()).body).toEqual({ companies: [], count: 0 });
    const first = await block("Granite Insurance #204");
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ company: "Granite Insurance #204", created_at: "2024-10-20T12:00:00.000Z" });
    expect((await block("  granite insurance #204 ")).body.company).toBe("Granite Insurance #204");
    await block("Acme Gym");
    const l = await list();
    expect(l.body.count).toBe(2);
    expect(l.body.companies.map((c: { company: string }) => c.company)).toEqual([
      "Acme Gym",
      "Granite Insurance #204",
    ]);
    const gone = await call(path("ACME GYM"), { method: "DELETE", now: NOW });
    expect(gone.body).toEqual({ company: "Acme Gym", status: "unblocked" });
    expectEnvelope(await call(path("Acme Gym"), { method: "DELETE", now: NOW }), 404, "NOT_FOUND");
    expectEnvelope(await call(path(" "), { method: "PUT", now: NOW }), 422, "VALIDATION_ERROR");
  });

  it("a blocked company's new transaction comes in without a notification; others notify", async () => {
    await block("SAVE-ON-FOODS #2281");
    const settings = await loadIngestSettings(env as unknown as Env);
    const notify = recordingNotifier();
    const deps = testDeps({ notify, settings: { blockedCompanies: settings.blockedCompanies } });
    expect((await ingestEmail(alert("SAVE-ON-FOODS #2281", "$64.19"), deps)).status).toBe("created");
    expect(notify.sent).toHaveLength(0);
    expect((await ingestEmail(alert("CORNER BAKERY", "$5.00"), deps)).status).toBe("created");
    expect(notify.sent).toHaveLength(1);
  });

  it("every write is journaled with images, and revert undoes an unblock", async () => {
    await block("Acme Gym");
    const del = await call(path("Acme Gym"), { method: "DELETE", now: NOW });
    const id = del.headers.get("x-activity-id");
    expect(id).toBeTruthy();
    const entries = (await call("/api/v1/activity", { now: NOW })).body.entries;
    expect(entries[0]).toMatchObject({ operation_id: "unblockCompany", reversible: true, after: null });
    expect(entries[0].before).toMatchObject({ company: "Acme Gym" });
    const counter = countingD1(env.DB);
    const undo = await call(`/api/v1/activity/${id}/revert`, {
      method: "POST",
      now: NOW,
      env: { DB: counter.db },
    });
    expect(undo.status, undo.text).toBe(200);
    expectEntryInBatch(counter, "blocked_companies");
    expect((await list()).body.companies.map((c: { company: string }) => c.company)).toEqual(["Acme Gym"]);
  });

  it("the data export carries the list", async () => {
    await block("Granite Insurance #204");
    const ctx = createExecutionContext();
    const res = await createApp().fetch(new Request("http://localhost/api/v1/data/export"), env as Env, ctx);
    const bytes = new Uint8Array(await res.arrayBuffer());
    await waitOnExecutionContext(ctx);
    expect(res.status).toBe(200);
    const files = unzipSync(bytes);
    const name = Object.keys(files).find((f) => f.endsWith("blocked_companies.json"));
    expect(name, Object.keys(files).join(", ")).toBeDefined();
    const text = new TextDecoder().decode(files[name!]);
    expect(text).toContain("Granite Insurance #204");
  });
});
