import {
  createExecutionContext,
  createMessageBatch,
  env,
  getQueueResult,
  waitOnExecutionContext,
} from "cloudflare:test";
import { beforeEach, describe, expect, it } from "vitest";
import type { Env } from "../../src/env";
import worker from "../../src/index";
import { imapIngest } from "../../src/ingest";
import { encodeTxId } from "../../src/lib/txid";
import { getConfig } from "../../src/domains/config/service";
import { routeEmail } from "../../src/ingest/sources/email-routing";
import { handleInboxObject } from "../../src/ingest/sources/r2-event";
import { countingD1, tally } from "../../bench/lib/d1-count";
import { brokenDb } from "../helpers/broken";
import { call, expectEnvelope } from "../helpers/http";
import { expectEntryInBatch } from "../helpers/ledger-batch";
import { asText, buildMime } from "../fixtures/emails/builders";
import { allFailures, allTransactions, resetIngestTables } from "../fixtures/emails/deps";
import { manyParts, nestedMultipart, nestedRfc822 } from "../fixtures/hostile/emails";

const E = env as unknown as Env;
const CIBC_BODY = `Dear Carlos,
      You've recently made a purchase with your CIBC Costco World Mastercard ending in 2210 for $64.19 at SAVE-ON-FOODS #2281.
CIBC`;
const alert = (o: Partial<Parameters<typeof buildMime>[0]> = {}) =>
  buildMime({ from: "CIBC <mailbox.noreply@cibc.com>", to: "carlos@example.com", body: CIBC_BODY, ...o });
/** An alert no parser reads (quarantined as no_parser_match). */
const unreadAlert = (messageId?: string) =>
  buildMime({
    from: "alerts@tangerine.example",
    subject: "Transaction alert",
    ...(messageId ? { messageId } : {}),
    body: "A purchase of $9.99 was charged to your card.",
  });
const withdrawal = () =>
  buildMime({
    from: "RBC <notifications@rbc.com>",
    to: "carlos@example.com",
    body: "Hello,\n A withdrawal of $40.00  was debited from your bank account Daily Savings.\nRBC Royal Bank",
  });

function emailMessage(raw: Uint8Array, from = "mailbox.noreply@cibc.com", to = "carlos@example.com") {
  return {
    from,
    to,
    raw: new Response(raw).body!,
    rawSize: raw.byteLength,
    headers: new Headers(),
    setReject() {},
    forward: async () => ({}) as never,
    reply: async () => ({}) as never,
  } as unknown as ForwardableEmailMessage;
}

async function viaEmailRouting(raw: Uint8Array) {
  const ctx = createExecutionContext();
  await worker.email!(emailMessage(raw), E, ctx);
  await waitOnExecutionContext(ctx);
}

async function viaUpload(raw: Uint8Array | string, name = "alert.eml", db?: D1Database) {
  const form = new FormData();
  form.append("file", new File([raw], name, { type: "message/rfc822" }));
  return call("/api/v1/transactions/upload-eml", {
    method: "POST",
    rawBody: form,
    env: db ? { DB: db } : {},
  });
}

/**
 * An upload through a counting D1, its ledger entry asserted to ride in the write of `table`
 * (`lastOf`: after a guarded insert that changed nothing, whose batch also carried the entry's
 * guarded insert, the entry rides in the last batch that inserts into activity_log).
 */
async function uploadJournaled(raw: Uint8Array | string, table: string, lastOf = false) {
  const counter = countingD1(E.DB);
  const res = await viaUpload(raw, "alert.eml", counter.db);
  expect(res.status, res.text).toBe(200);
  if (!lastOf) expectEntryInBatch(counter, table);
  else {
    const journaling = counter.trips.filter((t) =>
      t.sql.some((q) => q.startsWith('insert into "activity_log"')),
    );
    expect(journaling.at(-1)!.sql.some((q) => q.startsWith(`insert into "${table}"`))).toBe(true);
  }
  const [entry] = (await call("/api/v1/activity?limit=1")).body.entries;
  expect(entry.operation_id).toBe("uploadEml");
  return { res, entry };
}

let seq = 0;
async function viaR2(raw: Uint8Array, key = `inbox/${++seq}.eml`) {
  await E.FILES.put(key, raw);
  const batch = createMessageBatch("finance-journal-jobs", [
    {
      id: `m${seq}`,
      timestamp: new Date(),
      attempts: 1,
      body: {
        account: "a",
        bucket: "finance-journal-files",
        action: "PutObject",
        object: { key, size: raw.byteLength },
      },
    },
  ]);
  const ctx = createExecutionContext();
  await worker.queue!(batch as MessageBatch<unknown>, E, ctx);
  return getQueueResult(batch, ctx);
}

const viaImap = (raw: Uint8Array) => imapIngest(E)(raw, { uid: 1 });

/**
 * A real write failure: every insert into `table` fails until `end()` (a trigger writing to a
 * table that no longer exists; not a constraint, so the email is not quarantined for it).
 */
async function failingWrites(table: string) {
  await E.DB.batch([
    E.DB.prepare("CREATE TABLE outage_gone (x)"),
    E.DB.prepare(
      `CREATE TRIGGER outage AFTER INSERT ON ${table} BEGIN INSERT INTO outage_gone VALUES (1); END`,
    ),
    E.DB.prepare("DROP TABLE outage_gone"),
  ]);
  return { end: () => E.DB.prepare("DROP TRIGGER outage").run() };
}

describe("every door into the one pipeline", () => {
  beforeEach(() => resetIngestTables());

  it("Email Routing: email() stores the transaction", async () => {
    await viaEmailRouting(alert());
    const [row] = await allTransactions();
    expect(row).toMatchObject({
      Institution: "CIBC",
      Amount: 64.19,
      Company: "SAVE-ON-FOODS #2281",
      ForwardedTo: "carlos@example.com",
    });
    expect(row!.FileName).toMatch(/^emails\/2024\/10\/[0-9a-f]{16}\.eml$/);
  });

  it("upload-eml: created with FileName stored (reference shortfall), then duplicate", async () => {
    const first = await viaUpload(alert());
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({
      status: "created",
      amount: 64.19,
      company: "SAVE-ON-FOODS #2281",
      category: "miscellaneous",
      detail: null,
    });
    expect(first.body.date_file_name).toMatch(/^2024\.10\.15_14\.30_[0-9a-f]{12}\.eml$/);
    const [row] = await allTransactions();
    expect(row!.FileName).toMatch(/^emails\//);
    expect(await E.FILES.head(row!.FileName)).not.toBeNull();
    const again = await viaUpload(alert());
    expect(again.body).toMatchObject({ status: "duplicate", date_file_name: first.body.date_file_name });
  });

  it("upload-eml: a withdrawal (no company) is stored, not quarantined (reference shortfall)", async () => {
    const res = await viaUpload(withdrawal());
    expect(res.body).toMatchObject({ status: "created", amount: 40, company: null });
    expect(await allFailures()).toHaveLength(0);
  });

  it("upload-eml journals each outcome in the write that settles it", async () => {
    await E.DB.prepare("DELETE FROM activity_log").run();
    const created = await uploadJournaled(alert(), "transactions");
    expect(created.entry.summary).toBe("created: SAVE-ON-FOODS #2281 64.19");
    const txId = encodeTxId("carlos@example.com", created.res.body.date_file_name);
    expect(created.entry.resource_id).toBe(txId);
    // The duplicate changed no row; its entry rides with the sender's parse note.
    const duplicate = await uploadJournaled(alert(), "kv_state", true);
    expect(duplicate.res.body.status).toBe("duplicate");
    expect(duplicate.entry.summary).toBe("duplicate: SAVE-ON-FOODS #2281 64.19");
    const quarantined = await uploadJournaled(unreadAlert(), "parse_failures");
    expect(quarantined.entry.summary).toMatch(/^quarantined: pf_[0-9a-f]{24} \(no_parser_match\)$/);
    const ignored = await uploadJournaled(
      buildMime({ from: "news@x.example", body: "Hi" }),
      "ignored_emails",
    );
    expect(ignored.entry.summary).toMatch(/^ignored: /);
    expect((await call("/api/v1/activity")).body.entries).toHaveLength(4);
  });

  it("upload-eml: three round trips, the head's recipient and year read with the settings", async () => {
    await E.DB.prepare("INSERT INTO user_mappings (ForwardedTo, UserId, created_at) VALUES (?, ?, ?)")
      .bind("carlos@example.com", "carlos", "2024-01-01T00:00:00Z")
      .run();
    const counter = countingD1(E.DB);
    const res = await viaUpload(alert(), "alert.eml", counter.db);
    expect(res.body.status, res.text).toBe("created");
    // Auth, one settings batch (mapping, resolver, the year's targets), one insert batch that also
    // writes the month context, the sender's parse note and the entry.
    expect(tally(counter.trips).trips).toBeLessThanOrEqual(3);
    const insert = counter.trips.at(-1)!.sql;
    expect(insert.some((q) => q.startsWith('insert into "kv_state"'))).toBe(true);
    expect(insert.some((q) => q.startsWith('update "transactions" set "TransactionContext"'))).toBe(true);
    const [row] = await allTransactions();
    expect(row!.UserId).toBe("carlos");
    expect(row!.TransactionContext).toMatchObject({ category_month_total: 64.19, merchant_month_count: 1 });
    const note = await E.DB.prepare("SELECT value FROM kv_state WHERE key = 'wording:cibc.com'").first();
    expect(JSON.parse(String(note?.value))).toMatchObject({ institution: "CIBC", fails: 0 });
  });

  it("upload-eml: a failing write batch writes nothing and answers an error; uploaded again, the email is settled", async () => {
    await E.DB.prepare("DELETE FROM activity_log").run();
    for (const [raw, table, status] of [
      [alert(), "transactions", "created"],
      [unreadAlert(), "parse_failures", "quarantined"],
    ] as const) {
      const fails = await failingWrites(table);
      const res = await viaUpload(raw);
      expect(res.status, res.text).toBe(500);
      await fails.end();
      expect((await viaUpload(raw)).body.status).toBe(status);
    }
    expect(await allTransactions()).toHaveLength(1);
    expect(await allFailures()).toHaveLength(1);
    // Each failed batch took its entry and the sender's parse note with it.
    const entries = (await call("/api/v1/activity")).body.entries;
    expect(entries.map((e: { summary: string }) => e.summary.split(":")[0])).toEqual([
      "quarantined",
      "created",
    ]);
    const note = await E.DB.prepare("SELECT value FROM kv_state WHERE key = 'wording:cibc.com'").first();
    expect(JSON.parse(String(note?.value))).toMatchObject({ institution: "CIBC", fails: 0 });
  });

  it("upload-eml: a quarantine is three round trips", async () => {
    const counter = countingD1(E.DB);
    const q = await viaUpload(unreadAlert("<q1@t>"), "alert.eml", counter.db);
    expect(q.body.status, q.text).toBe("quarantined");
    // Auth, the settings with the unread email's reads (trust, older id, drift: the head names the
    // sender, Message-ID and hash), the row with the notice stamp and the entry.
    expect(tally(counter.trips).trips).toBeLessThanOrEqual(3);
    expectEntryInBatch(counter, "parse_failures");
  });

  it("upload-eml: quarantined and ignored outcomes are reported", async () => {
    const q = await viaUpload(unreadAlert());
    expect(q.body).toMatchObject({ status: "quarantined", date_file_name: null });
    expect(q.body.detail).toMatch(/no_parser_match.*pf_[0-9a-f]{24}/);
    const i = await viaUpload(buildMime({ from: "news@x.example", body: "Hello friend" }));
    expect(i.body).toMatchObject({ status: "ignored" });
  });

  it("upload-eml: missing, textual or non-email files are 422; over 5 MB is 413", async () => {
    const empty = await call("/api/v1/transactions/upload-eml", { method: "POST", rawBody: new FormData() });
    expect(expectEnvelope(empty, 422, "VALIDATION_ERROR").details.errors[0].loc).toEqual(["body", "file"]);
    const text = new FormData();
    text.append("file", "not a file");
    expectEnvelope(
      await call("/api/v1/transactions/upload-eml", { method: "POST", rawBody: text }),
      422,
      "VALIDATION_ERROR",
    );
    expectEnvelope(
      await viaUpload(new Uint8Array([0x25, 0x50, 0x44, 0x46, 0, 1, 2])),
      422,
      "VALIDATION_ERROR",
    );
    expectEnvelope(await viaUpload(new Uint8Array()), 422, "VALIDATION_ERROR");
    expectEnvelope(
      await call("/api/v1/transactions/upload-eml", { method: "POST", body: { file: "x" } }),
      422,
      "VALIDATION_ERROR",
    );
    const big = new Uint8Array(5 * 1024 * 1024 + 10).fill(0x41);
    expectEnvelope(await viaUpload(big), 413, "PAYLOAD_TOO_LARGE");
  });

  it("upload-eml is in the OpenAPI document under the transactions tag", async () => {
    const doc = await call("/openapi.json");
    const op = doc.body.paths["/api/v1/transactions/upload-eml"].post;
    expect(op.operationId).toBe("uploadEml");
    expect(op.tags).toEqual(["transactions"]);
    expect(Object.keys(op.requestBody.content)).toEqual(["multipart/form-data"]);
    expect(op.responses["200"].content["application/json"].schema.$ref ?? "").toContain("UploadEmlResponse");
  });

  it("R2 object under INBOX_PREFIX → queue message → pipeline; other prefixes are skipped", async () => {
    const result = await viaR2(alert());
    expect(result.explicitAcks).toEqual([`m${seq}`]);
    expect(await allTransactions()).toHaveLength(1);
    const skipped = await viaR2(withdrawal(), "elsewhere/x.eml");
    expect(skipped.explicitAcks).toHaveLength(1);
    expect(await allTransactions()).toHaveLength(1);
  });

  it("IMAP poller callback", async () => {
    expect((await viaImap(alert())).status).toBe("created");
    expect(await allTransactions()).toHaveLength(1);
  });

  it("Email Routing, R2 and IMAP: an alert is two round trips (settings with the head's reads, then the write)", async () => {
    const at = (n: number) =>
      alert({ messageId: `<trips-${n}@cibc>`, body: CIBC_BODY.replace("64.19", `1${n}.00`) });
    // One warm isolate's env (its configuration cached, as a delivery usually finds it).
    const counter = countingD1(E.DB);
    const warm = { ...E, DB: counter.db } as Env;
    await getConfig({ env: warm });
    const counted = async (door: (e: Env) => Promise<{ status: string } | null>) => {
      counter.reset();
      expect((await door(warm))?.status).toBe("created");
      return counter.trips.map((t) => t.kind);
    };
    const opts = { ai: null };
    expect(await counted((e) => routeEmail(emailMessage(at(1)), e, opts))).toEqual(["batch", "batch"]);
    const raw = at(2);
    await E.FILES.put("inbox/trips.eml", raw);
    const msg = { bucket: "b", action: "PutObject", object: { key: "inbox/trips.eml", size: raw.length } };
    expect(await counted((e) => handleInboxObject(e, msg, opts))).toEqual(["batch", "batch"]);
    expect(await counted((e) => imapIngest(e, undefined, opts)(at(3), { uid: 3 }))).toEqual([
      "batch",
      "batch",
    ]);
    const rows = await allTransactions();
    expect(rows).toHaveLength(3);
    // Each row's month context was written in its insert's batch (the visits so far, it included).
    const visits = rows.map((r) => r.TransactionContext?.merchant_month_count).sort();
    expect(visits).toEqual([1, 2, 3]);
    // A redelivery: its parse note rode in the insert's batch, whose check read the twin's key.
    counter.reset();
    const dup = await routeEmail(emailMessage(at(1)), warm, opts);
    expect(dup?.status).toBe("duplicate");
    expect(counter.trips.map((t) => t.kind)).toEqual(["batch", "batch"]);
    const first = rows.find((r) => r.Amount === 11);
    expect(dup?.status === "duplicate" && dup.tx.DateFileName).toBe(first?.DateFileName);
  });

  it("one alert through all four doors is one row with the same stored fields", async () => {
    const raw = alert();
    await viaEmailRouting(raw);
    const after1 = await allTransactions();
    expect((await viaUpload(raw)).body.status).toBe("duplicate");
    await viaR2(raw);
    expect((await viaImap(raw)).status).toBe("duplicate");
    const rows = await allTransactions();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toEqual(after1[0]);
  });

  it("each door stores the same record for the same alert", async () => {
    const fields = (r: Record<string, any>) => {
      // When it was written (CreatedAt, the extraction audit's stamp) differs by door; nothing else.
      const { CreatedAt: _c, TransactionContext: _t, ...rest } = r;
      const { extracted_at: _e, ...audit } = rest.ExtractionAudit ?? {};
      return { ...rest, ExtractionAudit: audit };
    };
    const seen: Record<string, any>[] = [];
    for (const door of [viaEmailRouting, viaUpload, viaR2, viaImap] as const) {
      await resetIngestTables();
      await door(alert({ messageId: "<same@x>" }));
      seen.push(fields((await allTransactions())[0]!));
    }
    for (const s of seen.slice(1)) expect(s).toEqual(seen[0]);
  });

  it("concurrent deliveries through different doors write one row", async () => {
    const raw = alert();
    await Promise.all([viaEmailRouting(raw), viaUpload(raw), viaR2(raw), viaImap(raw), viaImap(raw)]);
    expect(await allTransactions()).toHaveLength(1);
  });

  it("Email Routing during a D1 outage parks the raw under the inbox prefix for the R2 door", async () => {
    const out = await routeEmail(emailMessage(alert()), { ...E, DB: brokenDb });
    expect(out).toBeNull();
    const parked = await E.FILES.list({ prefix: "inbox/retry/" });
    expect(parked.objects).toHaveLength(1);
    const obj = await E.FILES.get(parked.objects[0]!.key);
    expect(asText(new Uint8Array(await obj!.arrayBuffer()))).toContain("SAVE-ON-FOODS");
    // Replayed through the R2 door once D1 is back.
    await viaR2(
      new Uint8Array(await (await E.FILES.get(parked.objects[0]!.key))!.arrayBuffer()),
      parked.objects[0]!.key,
    );
    expect(await allTransactions()).toHaveLength(1);
  });

  it("Email Routing and R2: a failing write batch keeps the email until a retry writes it", async () => {
    // The insert itself fails (its one batch, then the bare retry).
    const fails = await failingWrites("transactions");
    expect(await routeEmail(emailMessage(alert()), E)).toBeNull();
    expect(await allTransactions()).toHaveLength(0);
    const [parked] = (await E.FILES.list({ prefix: "inbox/retry/" })).objects;
    const event = { bucket: "b", action: "PutObject", object: { key: parked!.key } };
    // The R2 door throws (the queue retries) and keeps the inbox object.
    await expect(handleInboxObject(E, event)).rejects.toThrow(/outage_gone/);
    expect(await E.FILES.head(parked!.key)).not.toBeNull();
    await fails.end();
    expect((await handleInboxObject(E, event))?.status).toBe("created");
    expect(await E.FILES.head(parked!.key)).toBeNull();
    const [row] = await allTransactions();
    expect(row!.TransactionContext).toMatchObject({ merchant_month_count: 1 });
  });

  it("an R2 event during an outage is retried by the queue", async () => {
    await E.FILES.put("inbox/outage.eml", alert());
    const batch = createMessageBatch("finance-journal-jobs", [
      {
        id: "o1",
        timestamp: new Date(),
        attempts: 1,
        body: { bucket: "b", action: "PutObject", object: { key: "inbox/outage.eml" } },
      },
    ]);
    const ctx = createExecutionContext();
    await worker.queue!(batch as MessageBatch<unknown>, { ...E, DB: brokenDb }, ctx);
    const result = await getQueueResult(batch, ctx);
    expect(result.retryMessages.map((m) => m.msgId)).toEqual(["o1"]);
  });
});

// Issue 35 finding 2: MIME bombs are bounded before postal-mime runs, at every door; the refused
// email is quarantined unread with the reason in words (the raw kept), never lost.
describe("email bombs are refused before parsing", () => {
  beforeEach(() => resetIngestTables());

  const bombs = [
    {
      name: "2,000 nested message/rfc822 levels",
      raw: () => nestedRfc822(2000),
      words: /nests its parts more than 24 levels/,
    },
    { name: "50,000 parts", raw: () => manyParts(50_000), words: /more than 1,000 parts/ },
    {
      name: "200 nested multiparts",
      raw: () => nestedMultipart(200),
      words: /nests its parts more than 24 levels/,
    },
  ];

  for (const bomb of bombs) {
    it(`${bomb.name}: quarantined in words through Email Routing, R2, IMAP and upload, fast`, async () => {
      const raw = bomb.raw();
      const started = Date.now();
      await viaEmailRouting(raw);
      await viaR2(raw);
      await viaImap(raw);
      const up = await viaUpload(raw);
      expect(up.status, up.text).toBe(200);
      expect(up.body.status).toBe("quarantined");
      expect(Date.now() - started).toBeLessThan(8000);
      const rows = await allFailures();
      // One email, one quarantined row (redelivery upserts), its raw kept for a person to look at.
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({
        failure_stage: "email_too_complex",
        from_email: "mallory@evil.example",
      });
      const pf = await call(`/api/v1/parse-failures/${rows[0]!.id}`);
      expect(pf.body.error).toMatch(bomb.words);
      expect(await E.FILES.head(rows[0]!.raw_key)).not.toBeNull();
      expect(await allTransactions()).toHaveLength(0);
    });
  }

  it("real shapes stay within the bounds: a multipart alert with a forwarded message/rfc822 is read", async () => {
    const inner = new TextDecoder().decode(alert({ messageId: "<inner@cibc.com>" }));
    const raw = [
      "From: Sam <sam@home.example>",
      "To: carlos@example.com",
      "Subject: Fwd: alert",
      "Date: Tue, 15 Oct 2024 15:00:00 -0700",
      "MIME-Version: 1.0",
      'Content-Type: multipart/mixed; boundary="outer"',
      "",
      "--outer",
      "Content-Type: text/plain",
      "",
      "see attached",
      "--outer",
      "Content-Type: message/rfc822",
      "",
      inner,
      "--outer--",
      "",
    ].join("\r\n");
    const out = await viaImap(new TextEncoder().encode(raw));
    expect(out.status).not.toBe("quarantined");
  });
});
