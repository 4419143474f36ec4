import {
  createExecutionContext,
  createScheduledController,
  env,
  waitOnExecutionContext,
} from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { Env } from "../../src/env";
import { requireImap } from "../helpers/imap";
import worker from "../../src/index";

// The mailbox door end to end: a real Dovecot, the every-minute cron, the pipeline, D1.
const imap = requireImap();
const MAILBOX = "DoorTest";

const alert = (amount: string, merchant: string) =>
  new TextEncoder().encode(
    [
      "From: CIBC <mailer@cibc.com>",
      "To: me@example.com",
      "X-Forwarded-To: me@example.com",
      "Subject: Transaction alert",
      `Message-ID: <${crypto.randomUUID()}@cibc.com>`,
      "Date: Tue, 10 Sep 2024 11:15:00 -0700",
      "Content-Type: text/plain; charset=utf-8",
      "",
      "Dear Carlos,",
      `      You've recently made a purchase with your CIBC Costco World Mastercard ending in 2210 for $${amount} at ${merchant}.`,
      "",
    ].join("\r\n"),
  );

async function control(path: string, body?: Uint8Array) {
  const res = await fetch(`${imap.controlUrl}${path}?mailbox=${MAILBOX}`, { method: "POST", body });
  if (!res.ok) throw new Error(`${path}: ${res.status}`);
  return res.json();
}

async function tick(now: string) {
  const mailEnv = {
    ...env,
    IMAP_HOST: imap.host,
    IMAP_PORT: String(imap.plainPort),
    IMAP_TLS: "plain",
    IMAP_USER: imap.user,
    IMAP_PASSWORD: imap.password,
    IMAP_MAILBOX: MAILBOX,
  } as Env;
  const ctx = createExecutionContext();
  await worker.scheduled(
    createScheduledController({ cron: "* * * * *", scheduledTime: Date.parse(now) }),
    mailEnv,
    ctx,
  );
  await waitOnExecutionContext(ctx);
}

describe("IMAP door through the cron", () => {
  it("ingests new messages once, advances the cursor and the heartbeat", async () => {
    await control("/reset");
    await control("/append", alert("12.34", "IMAP CAFE"));
    await control("/append", alert("99.00", "IMAP GROCER"));
    await tick(new Date().toISOString());
    const { results } = await env.DB.prepare(
      "SELECT Company, Amount, Institution FROM transactions ORDER BY Amount",
    ).all();
    expect(results).toEqual([
      { Company: "IMAP CAFE", Amount: 1234, Institution: "CIBC" },
      { Company: "IMAP GROCER", Amount: 9900, Institution: "CIBC" },
    ]);
    const state = await env.DB.prepare(
      "SELECT last_uid, last_poll_at FROM poller_state WHERE id = 'imap'",
    ).first<{
      last_uid: number;
      last_poll_at: string;
    }>();
    expect(state?.last_uid).toBe(2);
    expect(state?.last_poll_at).toBeTruthy();
    const health = await worker.fetch(
      new Request("http://x/api/v1/health"),
      { ...env, IMAP_HOST: imap.host } as Env,
      createExecutionContext(),
    );
    expect(((await health.json()) as { imap_last_poll: string }).imap_last_poll).toBe(state?.last_poll_at);
  });
});

describe("R2 inbox sweep on the minute cron", () => {
  it("ingests objects no notification delivered and removes them from the inbox", async () => {
    await env.DB.prepare("DELETE FROM transactions").run();
    await env.FILES.put("inbox/dropped.eml", alert("7.50", "SWEPT BAKERY"));
    await env.FILES.put("inbox/junk.eml", new TextEncoder().encode("hello, not an alert"));
    const ctx = createExecutionContext();
    await worker.scheduled(createScheduledController({ cron: "* * * * *" }), env, ctx);
    await waitOnExecutionContext(ctx);
    const rows = await env.DB.prepare("SELECT Company, Amount FROM transactions").all();
    expect(rows.results).toEqual([{ Company: "SWEPT BAKERY", Amount: 750 }]);
    expect((await env.FILES.list({ prefix: "inbox/" })).objects).toEqual([]);
    // The raw is still kept under emails/ (the transaction's FileName).
    const file = await env.DB.prepare("SELECT FileName FROM transactions").first<string>("FileName");
    expect(await env.FILES.get(file!)).not.toBeNull();
  });
});
