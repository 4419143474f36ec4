// The first-run screen's facts (GET /api/v1/setup/status) and the loopback-only demo data offer.
import { env } from "cloudflare:test";
import { beforeEach, describe, expect, it } from "vitest";
import { resetState, setPassword } from "../helpers/auth";
import { call, expectEnvelope } from "../helpers/http";
import { clearTransactions, seedTx } from "../helpers/seed";

const NOW = "2026-11-21T20:00:00.000Z";
const REMOTE = { origin: "https://journal.example.com", env: { ALLOW_REMOTE_TOFU: "true" } };
const status = (opts = {}) => call("/api/v1/setup/status", { now: NOW, ...opts });
const seedDemo = (opts = {}) => call("/api/v1/setup/demo-data", { method: "POST", now: NOW, ...opts });

beforeEach(async () => {
  await resetState();
  await clearTransactions();
  await env.DB.batch(
    ["overrides", "budget_config", "user_mappings", "poller_state"].map((t) =>
      env.DB.prepare(`DELETE FROM ${t}`),
    ),
  );
});

describe("GET /api/v1/setup/status", () => {
  it("an empty journal on this machine: empty, no password, demo data offered", async () => {
    const res = await status();
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({
      empty: true,
      password_set: false,
      local: true,
      demo_data_available: true,
      email_routing: { forward_to: [] },
      mailbox: { configured: false, address: null, folder: null, last_poll: null, last_error: null },
    });
  });

  it("names the polled mailbox and the addresses alerts arrived at; a journal with rows is not empty", async () => {
    await seedTx({ ForwardedTo: "alerts@me.example", DateFileName: "a.eml", Amount: 5 });
    await env.DB.prepare(
      "INSERT INTO user_mappings (ForwardedTo, UserId) VALUES ('alerts@me.example', 'default')",
    ).run();
    const res = await status({ env: { IMAP_HOST: "imap.example", IMAP_USER: "bank@me.example" } });
    expect(res.body).toMatchObject({
      empty: false,
      demo_data_available: false,
      email_routing: { forward_to: ["alerts@me.example"] },
      mailbox: { configured: true, address: "bank@me.example", folder: "INBOX" },
    });
  });

  it("a request from elsewhere is not local and gets no demo offer", async () => {
    const res = await status(REMOTE);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ empty: true, local: false, demo_data_available: false });
  });

  it("says when a password is set (and then needs a session)", async () => {
    const cookie = await setPassword();
    expect((await status()).status).toBe(401);
    const res = await status({ headers: { cookie } });
    expect(res.body.password_set).toBe(true);
  });
});

describe("POST /api/v1/setup/demo-data", () => {
  it("fills an empty journal over loopback, journaled, and the journal then has months of rows", async () => {
    const res = await seedDemo();
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({
      overrides: 6,
      budget_year: 2026,
      recipient: "demo@finance-journal.example",
    });
    const { n } = (await env.DB.prepare("SELECT COUNT(*) AS n FROM transactions").first<{ n: number }>())!;
    expect(n).toBe(res.body.transactions);
    expect(n).toBeGreaterThan(300);
    const journal = await call("/api/v1/journal?month=2026-11", { now: NOW });
    expect(journal.body.transaction_count).toBeGreaterThan(20);
    const budget = await call("/api/v1/budget/config?year=2026", { now: NOW });
    expect(budget.status, budget.text).toBe(200);
    const [entry] = (await call("/api/v1/activity", { now: NOW })).body.entries;
    expect(entry).toMatchObject({ operation_id: "seedDemoData", summary: `added ${n} demo transactions` });
    expect((await status()).body).toMatchObject({ empty: false, demo_data_available: false });
  });

  it("409 when the journal already has a row, and nothing is written", async () => {
    await seedTx({ DateFileName: "mine.eml", Amount: 12 });
    expectEnvelope(await seedDemo(), 409, "CONFLICT");
    const { n } = (await env.DB.prepare("SELECT COUNT(*) AS n FROM transactions").first<{ n: number }>())!;
    expect(n).toBe(1);
  });

  it("403 from anywhere but this machine", async () => {
    expectEnvelope(await seedDemo(REMOTE), 403, "FORBIDDEN");
    const { n } = (await env.DB.prepare("SELECT COUNT(*) AS n FROM transactions").first<{ n: number }>())!;
    expect(n).toBe(0);
  });

  it("405 in the read-only demo", async () => {
    expectEnvelope(await seedDemo({ env: { DEMO_MODE: "true" } }), 405, "METHOD_NOT_ALLOWED");
  });
});
