/**
 * Issue 11's ingest integrity items, through the real doors (upload-eml over HTTP, ingestEmail with
 * real D1/R2): the failure stage names the step that failed (an Interac notice routed to a bank
 * without an e-transfer parser), quarantine ids come from the raw bytes, and names lose their
 * bidirectional control characters at the one commit path.
 */
import { env } from "cloudflare:test";
import { beforeEach, describe, expect, it } from "vitest";
import type { Env } from "../../src/env";
import { ingestEmail } from "../../src/ingest";
import { sha256Hex } from "../../src/ingest/hash";
import { messageIdQuarantineId } from "../../src/ingest/quarantine";
import { call } from "../helpers/http";
import { asText, buildMime } from "../fixtures/emails/builders";
import { allFailures, allTransactions, resetIngestTables, testDeps } from "../fixtures/emails/deps";

const E = env as unknown as Env;
const BIDI = /[\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]/;

async function viaUpload(raw: Uint8Array) {
  const form = new FormData();
  form.append("file", new File([raw], "alert.eml", { type: "message/rfc822" }));
  return call("/api/v1/transactions/upload-eml", { method: "POST", rawBody: form });
}

const interac = (bank: string) =>
  buildMime({
    from: "Interac e-Transfer <notify@payments.interac.ca>",
    to: "carlos@example.com",
    subject: "INTERAC e-Transfer: JOHN DOE sent you money.",
    body: `Hi CARLOS,

JOHN DOE has sent you $50.00 (CAD) and the money has been automatically deposited into your bank account at ${bank}.

Reference Number: CA1MRxYz9

Please do not reply to this email.`,
  });

describe("failure_stage names the step that failed", () => {
  beforeEach(() => resetIngestTables());

  it("an Interac notice naming a bank without an e-transfer parser is no_parser_match (ingest and retry)", async () => {
    const res = await viaUpload(interac("CIBC"));
    expect(res.body).toMatchObject({ status: "quarantined" });
    expect(res.body.detail).toMatch(/no_parser_match/);
    const [f] = await allFailures();
    expect(f).toMatchObject({ failure_stage: "no_parser_match", institution: "CIBC" });
    const retry = await call(`/api/v1/parse-failures/${f!.id}/retry`, { method: "POST" });
    expect(retry.body).toMatchObject({ status: "still_failing", failure_stage: "no_parser_match" });
  });

  it("the same notice naming a bank whose e-transfer parser read nothing stays extraction_empty", async () => {
    // Simplii's parser reads e-transfers, but not this unaccepted-transfer wording.
    const raw = buildMime({
      from: "Interac e-Transfer <notify@payments.interac.ca>",
      subject: "INTERAC e-Transfer",
      body: "Hi CARLOS,\n\nJOHN DOE has sent you $50.00 (CAD). Accept it at Simplii Financial.\n",
    });
    const out = await ingestEmail(raw, testDeps());
    expect(out).toMatchObject({
      status: "quarantined",
      failure_stage: "extraction_empty",
      institution: "Simplii",
    });
  });

  it("a parseable Interac notice for a bank with the parser is still a transaction", async () => {
    const out = await ingestEmail(interac("RBC Royal Bank"), testDeps());
    expect(out).toMatchObject({ status: "created" });
    const [row] = await allTransactions();
    expect(row).toMatchObject({ Institution: "RBC", TransactionType: "e-transfer", Amount: 50 });
  });
});

const unknownAlert = (messageId: string, amount: string) =>
  buildMime({
    from: "Alerts <alerts@tangerine.example>",
    subject: "Transaction alert",
    messageId,
    body: `A purchase of ${amount} was charged to your account at CORNER BAKERY.`,
  });

describe("quarantine ids come from the raw bytes", () => {
  beforeEach(() => resetIngestTables());

  it("two different emails reusing one Message-ID are two rows, each with its own raw", async () => {
    const first = unknownAlert("<reused@x>", "$23.75");
    const second = unknownAlert("<reused@x>", "$99.10");
    const a = await viaUpload(first);
    const b = await viaUpload(second);
    expect(a.body.status).toBe("quarantined");
    expect(b.body.status).toBe("quarantined");
    const rows = await allFailures();
    expect(rows).toHaveLength(2);
    expect(new Set(rows.map((r) => r.id)).size).toBe(2);
    expect(new Set(rows.map((r) => r.raw_key)).size).toBe(2);
    for (const [raw, amount] of [
      [first, "$23.75"],
      [second, "$99.10"],
    ] as const) {
      const row = rows.find((r) => r.body.includes(amount))!;
      const stored = await E.FILES.get(row.raw_key);
      expect(asText(new Uint8Array(await stored!.arrayBuffer()))).toBe(asText(raw));
      // Each row reads back through the API under its own id.
      expect((await call(`/api/v1/parse-failures/${row.id}`)).body.body).toContain(amount);
    }
  });

  it("the same bytes delivered twice (also concurrently) upsert one row", async () => {
    const raw = unknownAlert("<same@x>", "$23.75");
    const a = await ingestEmail(raw, testDeps());
    await Promise.all([ingestEmail(raw, testDeps()), viaUpload(raw), viaUpload(raw)]);
    const rows = await allFailures();
    expect(rows).toHaveLength(1);
    expect(rows[0]!.id).toBe((a as { id: string }).id);
  });

  it("a row stored under the older Message-ID id is upserted when its same bytes come again", async () => {
    const raw = unknownAlert("<old@x>", "$23.75");
    const legacy = await messageIdQuarantineId("<old@x>");
    const sha = await sha256Hex(raw);
    const then = "2024-09-01T00:00:00Z";
    await E.DB.prepare(
      `INSERT INTO parse_failures (id, status, failure_stage, forwarded_to, from_email, subject, body, detail, created_at, updated_at)
       VALUES (?, 'quarantined', 'no_parser_match', 'alerts@example.com', 'alerts@tangerine.example', 'Transaction alert', 'old', ?, ?, ?)`,
    )
      .bind(legacy, JSON.stringify({ raw_sha256: sha }), then, then)
      .run();
    const out = await ingestEmail(raw, testDeps());
    expect(out).toMatchObject({ status: "quarantined", id: legacy });
    const rows = await allFailures();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ id: legacy, created_at: then });
    expect(rows[0]!.body).toContain("CORNER BAKERY");
    // Older ids stay readable through the API (ids are opaque strings).
    expect((await call(`/api/v1/parse-failures/${legacy}`)).body).toMatchObject({ id: legacy });
  });
});

const cibcAlert = (merchant: string) =>
  buildMime({
    from: "CIBC <mailbox.noreply@cibc.com>",
    to: "carlos@example.com",
    messageId: null,
    body: `Dear Carlos,
      You've recently made a purchase with your CIBC Costco World Mastercard ending in 2210 for $64.19 at ${merchant}.
CIBC`,
  });

describe("bidirectional control characters never reach a stored name", () => {
  beforeEach(() => resetIngestTables());

  it("a parsed merchant with U+202E is stored without it (and dedups with the clean spelling)", async () => {
    const res = await viaUpload(cibcAlert("\u202eSDOOF-NO-EVAS\u202c #2281"));
    expect(res.body).toMatchObject({ status: "created", company: "SDOOF-NO-EVAS #2281" });
    const [row] = await allTransactions();
    expect(row!.Company).toBe("SDOOF-NO-EVAS #2281");
    expect(BIDI.test(row!.Company)).toBe(false);
    // The hash is over the cleaned name: the same alert without the controls is a duplicate.
    expect((await viaUpload(cibcAlert("SDOOF-NO-EVAS #2281"))).body.status).toBe("duplicate");
  });

  it("a hand-resolved company loses isolates, marks and the Arabic letter mark", async () => {
    await ingestEmail(unknownAlert("<bidi@x>", "$23.75"), testDeps());
    const [f] = await allFailures();
    const res = await call(`/api/v1/parse-failures/${f!.id}/resolve`, {
      method: "POST",
      body: { date: "2024-10-19", amount: 23.75, company: "\u2067Corner\u2069 \u200fBakery\u061c\u200e" },
    });
    expect(res.status).toBe(200);
    const [row] = await allTransactions();
    expect(row!.Company).toBe("Corner Bakery");
  });
});
