import { env } from "cloudflare:test";
import { getDb } from "../../src/db";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Env } from "../../src/env";
import { requireImap } from "../helpers/imap";
import {
  backoffSeconds,
  type ImapConfig,
  imapConfigFromEnv,
  pollMailbox,
  OPS_PER_INGEST,
  readPollerState,
  STEP_MESSAGES,
} from "../../src/ingest/sources/imap";
import { imapStep, pollImap } from "../../src/jobs/schedule";
import type { QueueMessage } from "../../src/jobs/messages";
import { buildMime } from "../fixtures/emails/builders";
import { allTransactions, resetIngestTables } from "../fixtures/emails/deps";
import { call } from "../helpers/http";
import { PLAN_LIMITS, perInvocation } from "../helpers/limits";
import {
  ImapAuthError,
  ImapConnectionError,
  ImapSession,
  ImapTimeoutError,
  type ImapTls,
} from "../../src/ingest/sources/imap-client";

// Runs against the throwaway Dovecot of test/setup/global-imap.ts.
const imap = requireImap();
const enc = new TextEncoder();

function message(subject: string, body = "Purchase of $12.34 at Coffee Shop"): Uint8Array {
  return enc.encode(
    `From: alerts@bank.example\r\nTo: me@example.com\r\nSubject: ${subject}\r\n` +
      `Message-ID: <${crypto.randomUUID()}@test>\r\nDate: Sun, 1 Mar 2026 12:00:00 +0000\r\n\r\n${body}\r\n`,
  );
}

async function control(path: string, mailbox: string, body?: Uint8Array): Promise<any> {
  const url = `${imap.controlUrl}${path}${path.includes("?") ? "&" : "?"}mailbox=${encodeURIComponent(mailbox)}`;
  const res = await fetch(url, { method: "POST", body });
  if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return res.json();
}
const append = (mailbox: string, raw: Uint8Array): Promise<{ uid: number; uidValidity: number }> =>
  control("/append", mailbox, raw);
const resetMailbox = (mailbox: string): Promise<unknown> => control("/reset", mailbox);

let boxSeq = 0;
const newMailbox = (name: string) => `${name}-${++boxSeq}-${crypto.randomUUID().slice(0, 6)}`;

function config(mailbox: string, over: Partial<ImapConfig> = {}): ImapConfig {
  return {
    host: imap.host,
    port: imap.plainPort,
    tls: "plain",
    user: imap.user,
    password: imap.password,
    mailbox,
    ...over,
  };
}

async function session(tls: ImapTls, mailbox: string): Promise<ImapSession> {
  const port = tls === "implicit" ? imap.tlsPort : imap.plainPort;
  const s = await ImapSession.open({ host: imap.host, port, tls });
  await s.login(imap.user, imap.password); // has a quote, a backslash and "ü": quoted + literal
  await s.select(mailbox);
  return s;
}

describe("IMAP client against Dovecot", () => {
  const mailbox = newMailbox("client");
  const raw = message("client test");
  let appended: { uid: number; uidValidity: number };
  beforeAll(async () => {
    appended = await append(mailbox, raw);
  });

  for (const tls of ["plain", "starttls", "implicit"] as const) {
    it(`logs in and fetches over ${tls}`, async () => {
      const s = await session(tls, mailbox);
      expect(await s.select(mailbox)).toEqual({ uidValidity: appended.uidValidity, exists: 1 });
      expect(await s.searchUidsFrom(1)).toEqual([appended.uid]);
      expect(await s.fetchRaw(appended.uid)).toEqual(raw);
      await s.logout();
    });
  }

  it("fetches a large 8-bit and base64 message byte-exactly", async () => {
    const box = newMailbox("bytes");
    const bin = Array.from({ length: 150_000 }, (_, i) => String.fromCharCode((i * 7919) % 251)).join("");
    const b64 = btoa(bin).replace(/.{76}/g, "$&\r\n").trimEnd();
    const head = enc.encode(
      "From: =?UTF-8?B?QmFucXVl?= <alertes@banque.example>\r\nTo: me@example.com\r\n" +
        "Subject: Achat de 42,00 € chez Café Olé — ✓\r\nMIME-Version: 1.0\r\n" +
        'Content-Type: multipart/mixed; boundary="b1"\r\n\r\n--b1\r\n' +
        "Content-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: 8bit\r\n\r\n" +
        "Montant : 42,00 € — marchand « Café Olé » 日本語 {12}\r\n--b1\r\n" +
        "Content-Type: text/plain; charset=iso-8859-1\r\n\r\n",
    );
    const latin1 = [0x43, 0x61, 0x66, 0xe9, 0x20, 0xff, 0x80, 0x0d, 0x0a]; // "Café ÿ\x80" in ISO-8859-1
    const tail = enc.encode(
      "--b1\r\nContent-Type: application/octet-stream\r\nContent-Transfer-Encoding: base64\r\n\r\n" +
        `${b64}\r\n--b1--\r\n`,
    );
    const rawMsg = new Uint8Array([...head, ...latin1, ...tail]);
    const { uid } = await append(box, rawMsg);
    const s = await session("implicit", box);
    const got = (await s.fetchRaw(uid))!;
    expect(got).toBeInstanceOf(Uint8Array);
    expect(got.byteLength).toBe(rawMsg.byteLength);
    expect(got.every((b, i) => b === rawMsg[i])).toBe(true);
    expect(await s.fetchRaw(uid + 100)).toBeNull();
    await s.logout();
  });

  it("filters the highest UID that `UID n:*` always returns", async () => {
    const s = await session("plain", mailbox);
    expect(await s.searchUidsFrom(appended.uid + 1)).toEqual([]);
    await s.logout();
  });

  it("rejects a wrong password with a typed error that does not carry the password", async () => {
    const s = await ImapSession.open({ host: imap.host, port: imap.plainPort, tls: "starttls" });
    const err = await s.login(imap.user, "wrong-Secret-123").catch((e: unknown) => e);
    s.close();
    expect(err).toBeInstanceOf(ImapAuthError);
    expect(err).toMatchObject({ kind: "auth", status: "NO", command: "LOGIN" });
    expect(String(err)).not.toContain("wrong-Secret-123");
  });

  it("reports a refused connection and times out on a silent server", async () => {
    const refused = ImapSession.open({ host: "127.0.0.1", port: imap.closedPort, tls: "plain" });
    await expect(refused).rejects.toBeInstanceOf(ImapConnectionError);
    const started = Date.now();
    const silent = ImapSession.open({
      host: imap.host,
      port: imap.silentPort,
      tls: "plain",
      connectTimeoutMs: 300,
    });
    await expect(silent).rejects.toBeInstanceOf(ImapTimeoutError);
    expect(Date.now() - started).toBeLessThan(3_000);
  });
});

describe("pollMailbox", () => {
  let now = 0;
  const clock = () => new Date(now);
  const at = (seconds: number) => new Date(Date.parse("2026-03-01T12:00:00Z") + seconds * 1000).getTime();
  let ingested: { uid: number; raw: Uint8Array }[] = [];
  const ingest = async (raw: Uint8Array, meta: { uid: number }) => {
    ingested.push({ uid: meta.uid, raw });
  };
  const poll = (cfg: ImapConfig, over: Partial<Parameters<typeof pollMailbox>[0]> = {}) =>
    pollMailbox({ config: cfg, db: getDb(env.DB), clock, ingest, pollIntervalSeconds: 60, ...over });

  beforeEach(async () => {
    await env.DB.prepare("DELETE FROM poller_state").run();
    ingested = [];
    now = at(0);
  });

  it("persists last_uid and the heartbeat, then fetches only higher UIDs", async () => {
    const box = newMailbox("poll");
    const a = await append(box, message("one"));
    const b = await append(box, message("two"));
    expect(await poll(config(box))).toEqual({ status: "polled", fetched: 2, lastUid: b.uid, remaining: 0 });
    expect(ingested.map((m) => m.uid)).toEqual([a.uid, b.uid]);
    let state = await readPollerState(getDb(env.DB));
    expect(state).toMatchObject({ last_uid: b.uid, uid_validity: a.uidValidity, consecutive_failures: 0 });
    expect(state!.last_poll_at).toBe(new Date(at(0)).toISOString());

    const c = await append(box, message("three", "Withdrawal of $40.00"));
    now = at(60);
    expect(await poll(config(box))).toMatchObject({ status: "polled", fetched: 1, lastUid: c.uid });
    expect(ingested.map((m) => m.uid)).toEqual([a.uid, b.uid, c.uid]);
    expect(new TextDecoder().decode(ingested[2]!.raw)).toContain("Withdrawal of $40.00");

    now = at(120);
    expect(await poll(config(box))).toMatchObject({ status: "polled", fetched: 0, lastUid: c.uid });
    state = await readPollerState(getDb(env.DB));
    expect(state!.last_poll_at).toBe(new Date(at(120)).toISOString());
  });

  it("skips while the last attempt is younger than poll_interval", async () => {
    const box = newMailbox("interval");
    await append(box, message("one"));
    expect((await poll(config(box))).status).toBe("polled");
    now = at(30);
    expect(await poll(config(box))).toMatchObject({ status: "skipped", reason: "interval" });
    now = at(60);
    expect((await poll(config(box))).status).toBe("polled");
    now = at(90);
    expect((await poll(config(box), { pollIntervalSeconds: 20 })).status).toBe("polled");
  });

  it("backs off 5 s, 10 s, ... up to 300 s on connection errors, then recovers", async () => {
    const closed = config("INBOX", { port: imap.closedPort });
    let t = 0;
    const delays: number[] = [];
    for (let i = 1; i <= 8; i++) {
      now = at(t);
      const res = await poll(closed);
      expect(res.status).toBe("failed");
      expect(res.error).toMatch(/ImapConnectionError/);
      const state = (await readPollerState(getDb(env.DB)))!;
      expect(state.consecutive_failures).toBe(i);
      const delay = (Date.parse(state.next_attempt_at!) - at(t)) / 1000;
      delays.push(delay);
      now = at(t + delay - 1);
      expect(await poll(closed)).toMatchObject({ status: "skipped", reason: "backoff" });
      t += delay;
    }
    expect(delays).toEqual([5, 10, 20, 40, 80, 160, 300, 300]);
    expect(backoffSeconds(50)).toBe(300);

    now = at(t);
    const box = newMailbox("recover");
    await append(box, message("back"));
    expect(await poll(config(box))).toMatchObject({ status: "polled", fetched: 1 });
    const state = (await readPollerState(getDb(env.DB)))!;
    expect(state).toMatchObject({ consecutive_failures: 0, next_attempt_at: null, last_error: null });
    expect(state.last_poll_at).toBe(new Date(at(t)).toISOString());
  });

  it("backs off on a wrong password without leaking it", async () => {
    const res = await poll(config("INBOX", { password: "not-the-Password-99" }));
    expect(res.status).toBe("failed");
    expect(res.error).toMatch(/ImapAuthError/);
    const state = (await readPollerState(getDb(env.DB)))!;
    expect(state.last_error).not.toContain("not-the-Password-99");
    expect(Date.parse(state.next_attempt_at!) - at(0)).toBe(5_000);
  });

  it("starts over from UID 0 when UIDVALIDITY changes", async () => {
    const box = newMailbox("validity");
    const first = await append(box, message("one"));
    await append(box, message("two"));
    expect((await poll(config(box))).fetched).toBe(2);

    await resetMailbox(box);
    const fresh = await append(box, message("after reset"));
    expect(fresh.uidValidity).not.toBe(first.uidValidity);
    ingested = [];
    now = at(60);
    expect(await poll(config(box))).toMatchObject({ status: "polled", fetched: 1, lastUid: fresh.uid });
    expect(ingested.map((m) => m.uid)).toEqual([fresh.uid]);
    expect(await readPollerState(getDb(env.DB))).toMatchObject({
      last_uid: fresh.uid,
      uid_validity: fresh.uidValidity,
    });
  });

  it("does not advance past a message whose ingest throws", async () => {
    const box = newMailbox("retry");
    const uids: number[] = [];
    for (const s of ["one", "two", "three"]) uids.push((await append(box, message(s))).uid);
    let failOnce = true;
    const flaky = async (raw: Uint8Array, meta: { uid: number }) => {
      if (meta.uid === uids[1] && failOnce) {
        failOnce = false;
        throw new Error("pipeline down");
      }
      ingested.push({ uid: meta.uid, raw });
    };
    const res = await poll(config(box), { ingest: flaky });
    expect(res).toMatchObject({ status: "polled", fetched: 1, lastUid: uids[0] });
    expect(res.error).toContain("pipeline down");
    expect(await readPollerState(getDb(env.DB))).toMatchObject({
      last_uid: uids[0],
      consecutive_failures: 0,
    });

    now = at(60);
    expect(await poll(config(box), { ingest: flaky })).toMatchObject({ fetched: 2, lastUid: uids[2] });
    expect(ingested.map((m) => m.uid)).toEqual(uids);
    expect((await readPollerState(getDb(env.DB)))!.last_error).toBeNull();
  });
});

describe("a mailbox backlog in bounded steps (issue 36)", () => {
  it("reads a backlog past one step in steps chained through the queue: every message once, each step within half the Paid budget, the backlog shown falling to 0", async () => {
    await resetIngestTables();
    await env.DB.prepare("DELETE FROM poller_state").run();
    const box = newMailbox("backlog");
    // Steps of 5 here (the time of the test); one message's operations, measured, bound the real step.
    const size = 5;
    const total = 2 * size + 2;
    // `total` alerts in one session, each its own amount ($1.25, $2.25, ...) and Message-ID.
    const body = `You've recently made a purchase with your CIBC Costco World Mastercard ending in 2210 for $${"{n}"}.25 at SAVE-ON-FOODS #2281.`;
    const from = "CIBC <mailbox.noreply@cibc.com>";
    const raw = buildMime({ from, to: "carlos@example.com", body, messageId: "<backlog-{n}@cibc>" });
    await control(`/append?count=${total}`, box, raw);
    const sent: QueueMessage[] = [];
    const JOBS = { send: async (m: QueueMessage) => void sent.push(m) } as unknown as Queue<unknown>;
    const E = {
      ...env,
      JOBS,
      IMAP_HOST: imap.host,
      IMAP_PORT: String(imap.plainPort),
      IMAP_TLS: "plain",
      IMAP_USER: imap.user,
      IMAP_PASSWORD: imap.password,
      IMAP_MAILBOX: box,
    } as unknown as Env;
    const clock = () => new Date("2026-03-01T12:00:00Z");
    const backlog = async () => (await call("/api/v1/setup/status", { env: E })).body.mailbox.backlog;
    expect(await backlog()).toBeNull();
    const steps: { fetched: number; d1Queries: number; operations: number; backlog: number }[] = [];
    // The cron's poll and, at the same time, a stray step from the cursor it read: one claims the
    // mailbox, the other does nothing (never the same UID twice).
    const rival = perInvocation(E);
    let run: (e: Env) => Promise<unknown> = async (e) => {
      const step = { type: "job" as const, kind: "imap-step", payload: { after: 0 } };
      const [cron, stray] = await Promise.all([
        pollImap(e, clock, undefined, size),
        imapStep(rival.env, step, clock, size),
      ]);
      expect(stray).toMatchObject({ status: "skipped", fetched: 0 });
      return cron;
    };
    // Then each queued step: one invocation each, under the Paid plan's counts.
    for (let i = 0; i < 5; i++) {
      const inv = perInvocation(E);
      const res = (await run(inv.env)) as { fetched: number };
      steps.push({ fetched: res.fetched, ...inv.counts, backlog: await backlog() });
      const next = sent.shift();
      if (!next) break;
      expect(next).toMatchObject({ type: "job", kind: "imap-step" });
      run = (e) => imapStep(e, next, clock, size);
    }
    expect(steps.map((s) => [s.fetched, s.backlog])).toEqual([
      [size, size + 2],
      [size, 2],
      [2, 0],
    ]);
    for (const s of steps) {
      expect(s.d1Queries).toBeLessThanOrEqual(PLAN_LIMITS.paid.d1Queries / 2);
      expect(s.operations).toBeLessThanOrEqual(PLAN_LIMITS.paid.operations / 2);
    }
    // One message's operations (its ingest and the cursor's write; ~4: the raw email's put, the
    // settings batch, the write, the cursor) within the number the real step's size is set by, and
    // a step of STEP_MESSAGES of the heaviest so within half the budget.
    const perMessage = (steps[1]!.operations - steps[2]!.operations) / (size - 2);
    const overhead = steps[2]!.operations - 2 * perMessage;
    expect(perMessage).toBeLessThanOrEqual(OPS_PER_INGEST);
    expect(STEP_MESSAGES * OPS_PER_INGEST + overhead).toBeLessThanOrEqual(PLAN_LIMITS.paid.operations / 2);
    // Every message once: one row each (each alert's own amount).
    const rows = await allTransactions();
    expect(rows).toHaveLength(total);
    expect(new Set(rows.map((r) => r.Amount)).size).toBe(total);
    // A redelivered step finds the cursor moved on and does nothing.
    const again = perInvocation(E);
    expect(
      await imapStep(again.env, { type: "job", kind: "imap-step", payload: { after: 0 } }, clock),
    ).toMatchObject({ status: "skipped", reason: "moved", fetched: 0 });
    expect(await allTransactions()).toHaveLength(total);
  });
});

describe("imapConfigFromEnv", () => {
  it("is null without IMAP_HOST and applies defaults otherwise", () => {
    expect(imapConfigFromEnv({ IMAP_HOST: "" } as Env)).toBeNull();
    const defaults = { port: 993, tls: "implicit", user: "u", password: "", mailbox: "INBOX" };
    expect(imapConfigFromEnv({ IMAP_HOST: "imap.example.com", IMAP_USER: "u" } as Env)).toEqual({
      host: "imap.example.com",
      ...defaults,
    });
    const c = imapConfigFromEnv({ IMAP_HOST: "h", IMAP_TLS: "STARTTLS", IMAP_MAILBOX: "Alerts" } as Env);
    expect(c).toMatchObject({ port: 143, tls: "starttls", mailbox: "Alerts" });
    const plain = imapConfigFromEnv({ IMAP_HOST: "h", IMAP_TLS: "plain", IMAP_PORT: "1143" } as Env);
    expect(plain).toMatchObject({ port: 1143, tls: "plain" });
  });
});
