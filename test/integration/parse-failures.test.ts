import { env } from "cloudflare:test";
import { getDb } from "../../src/db";
import { beforeEach, describe, expect, it } from "vitest";
import { countingD1 } from "../../bench/lib/d1-count";
import { getFailures } from "../../src/domains/parse-failures/queries";
import type { Env } from "../../src/env";
import { ingestEmail } from "../../src/ingest";
import { call, expectEnvelope } from "../helpers/http";
import { PLAN_LIMITS, perInvocation } from "../helpers/limits";
import { retryAllStep } from "../../src/jobs/consumer";
import type { QueueMessage } from "../../src/jobs/messages";
import { expectEntryInBatch } from "../helpers/ledger-batch";
import { buildMime } from "../fixtures/emails/builders";
import { allFailures, allTransactions, resetIngestTables, testDeps } from "../fixtures/emails/deps";

const E = env as unknown as Env;
const now = "2024-10-20T12:00:00Z";
const CIBC_OK = `Dear Carlos,
      You've recently made a purchase with your CIBC Costco World Mastercard ending in 2210 for $64.19 at SAVE-ON-FOODS #2281.
CIBC`;

const unknownAlert = (id: string, from = "alerts@tangerine.example") =>
  buildMime({
    from,
    subject: "Transaction alert",
    messageId: id,
    body: "A purchase of $23.75 was charged to your account at CORNER BAKERY.",
  });

const ledger = async () =>
  (await E.DB.prepare("SELECT resource_id, summary FROM activity_log ORDER BY seq").all()).results;

async function quarantine(raw: Uint8Array): Promise<string> {
  const out = await ingestEmail(raw, testDeps());
  if (out.status !== "quarantined") throw new Error(`expected quarantine, got ${out.status}`);
  return out.id;
}

/**
 * A row quarantined by an older parser whose raw (now parseable) is in R2: what a retry after a
 * parser fix meets.
 */
async function staleQuarantine(id: string, raw: Uint8Array, from = "mailbox.noreply@cibc.com") {
  const key = `emails/2024/10/${id}.eml`;
  await E.FILES.put(key, raw);
  await E.DB.prepare(
    `INSERT INTO parse_failures (id, status, failure_stage, institution, forwarded_to, from_email, subject, body, raw_key, detail, created_at, updated_at)
     VALUES (?, 'quarantined', 'extraction_empty', 'CIBC', 'me@example.com', ?, 'Alert', 'old body', ?, '{}', ?, ?)`,
  )
    .bind(id, from, key, now, now)
    .run();
}

describe("parse-failures routes", () => {
  beforeEach(() => resetIngestTables());

  it("lists quarantined rows (no body), filters by status, rejects an unknown status", async () => {
    const a = await quarantine(unknownAlert("<a@x>"));
    await quarantine(unknownAlert("<b@x>"));
    const res = await call("/api/v1/parse-failures");
    expect(res.status).toBe(200);
    expect(res.body.count).toBe(2);
    expect(res.body.failures[0]).not.toHaveProperty("body");
    expect(res.body.failures.find((f: any) => f.id === a)).toMatchObject({
      from_email: "alerts@tangerine.example",
      subject: "Transaction alert",
      failure_stage: "no_parser_match",
      status: "quarantined",
      detected_institution: null,
      recovered_date_file_name: null,
      alert_classifier_result: null,
    });
    await call(`/api/v1/parse-failures/${a}`, { method: "DELETE" });
    expect((await call("/api/v1/parse-failures")).body.count).toBe(1);
    expect(
      (await call("/api/v1/parse-failures?status=dismissed")).body.failures.map((f: any) => f.id),
    ).toEqual([a]);
    expectEnvelope(await call("/api/v1/parse-failures?status=bogus"), 422, "VALIDATION_ERROR");
  });

  it("reads one row with its body; 404 for an unknown id", async () => {
    const id = await quarantine(unknownAlert("<c@x>"));
    const res = await call(`/api/v1/parse-failures/${id}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id, status: "quarantined" });
    expect(res.body.body).toContain("CORNER BAKERY");
    expect(res.body.raw_key).toMatch(/^emails\/2024\/10\//);
    expectEnvelope(await call("/api/v1/parse-failures/pf_nope"), 404, "NOT_FOUND");
  });

  it("dismiss is idempotent and 404s on unknown ids", async () => {
    const id = await quarantine(unknownAlert("<d@x>"));
    await E.DB.prepare("DELETE FROM activity_log").run();
    const counter = countingD1(E.DB);
    const res = await call(`/api/v1/parse-failures/${id}`, { method: "DELETE", env: { DB: counter.db } });
    expect(res.body).toEqual({ failure_id: id, status: "dismissed" });
    // Its entry rides in the status write's batch.
    expectEntryInBatch(counter, "parse_failures");
    expect(await ledger()).toEqual([{ resource_id: id, summary: "dismissed" }]);
    expect((await call(`/api/v1/parse-failures/${id}`, { method: "DELETE" })).status).toBe(200);
    expectEnvelope(await call("/api/v1/parse-failures/pf_nope", { method: "DELETE" }), 404, "NOT_FOUND");
  });

  it("retry re-runs the deterministic parsers from the raw in R2", async () => {
    await staleQuarantine(
      "pf_stale1",
      buildMime({ from: "CIBC <mailbox.noreply@cibc.com>", to: "me@example.com", body: CIBC_OK }),
    );
    // The stored email date names the row's year: its budget targets join the settings batch.
    await E.DB.prepare("UPDATE parse_failures SET email_date = '10/15/2024 14:30 PDT'").run();
    await E.DB.prepare("DELETE FROM activity_log").run();
    const counter = countingD1(E.DB);
    const res = await call("/api/v1/parse-failures/pf_stale1/retry", {
      method: "POST",
      now,
      env: { DB: counter.db },
    });
    expect(res.status).toBe(200);
    expectEntryInBatch(counter, "parse_failures");
    expect(
      counter.trips[1]!.sql.some((q) => /from "parse_failures" where "parse_failures"."id"/.test(q)),
    ).toBe(true);
    expectEntryInBatch(counter, "transactions");
    expect(await ledger()).toEqual([{ resource_id: "pf_stale1", summary: "retried: recovered" }]);
    expect(res.body).toMatchObject({ failure_id: "pf_stale1", status: "recovered", failure_stage: null });
    const [tx] = await allTransactions();
    expect(tx).toMatchObject({ Institution: "CIBC", Amount: 64.19, DateFileName: res.body.date_file_name });
    expect(tx!.TransactionContext).toMatchObject({ category_month_total: 64.19, merchant_month_count: 1 });
    const row = (await call("/api/v1/parse-failures/pf_stale1")).body;
    expect(row).toMatchObject({ status: "recovered", recovered_date_file_name: res.body.date_file_name });
    expectEnvelope(await call("/api/v1/parse-failures/pf_stale1/retry", { method: "POST" }), 409, "CONFLICT");
  });

  it("retry of a still-unreadable email says so and keeps the row quarantined", async () => {
    const id = await quarantine(unknownAlert("<e@x>"));
    await E.DB.prepare("DELETE FROM activity_log").run();
    const counter = countingD1(E.DB);
    const res = await call(`/api/v1/parse-failures/${id}/retry`, { method: "POST", env: { DB: counter.db } });
    expectEntryInBatch(counter, "parse_failures");
    expect(await ledger()).toEqual([{ resource_id: id, summary: "retried: still_failing" }]);
    expect(res.body).toMatchObject({
      status: "still_failing",
      failure_stage: "no_parser_match",
      date_file_name: null,
    });
    expect((await allFailures())[0]!.status).toBe("quarantined");
    expectEnvelope(await call("/api/v1/parse-failures/pf_nope/retry", { method: "POST" }), 404, "NOT_FOUND");
  });

  it("retry-all: whole backlog without a filter, or filtered by domain / institution", async () => {
    await staleQuarantine("pf_s1", buildMime({ from: "CIBC <mailbox.noreply@cibc.com>", body: CIBC_OK }));
    await staleQuarantine(
      "pf_s2",
      buildMime({ from: "CIBC <mailbox.noreply@cibc.com>", body: CIBC_OK.replace("64.19", "10.00") }),
    );
    await quarantine(unknownAlert("<f@x>"));
    const still = countingD1(E.DB);
    const filtered = await call("/api/v1/parse-failures/retry-all", {
      method: "POST",
      body: { from_domain: "tangerine.example" },
      env: { DB: still.db },
    });
    expect(filtered.body).toEqual({
      retried: 1,
      created: 0,
      duplicates: 0,
      still_failing: 1,
      status: "done",
      task_id: null,
    });
    await E.DB.prepare("DELETE FROM activity_log").run();
    const counter = countingD1(E.DB);
    const all = await call("/api/v1/parse-failures/retry-all", { method: "POST", env: { DB: counter.db } });
    expect(all.status).toBe(200);
    // One entry for the request, in the status batch.
    expectEntryInBatch(counter, "parse_failures");
    expect(await ledger()).toEqual([{ resource_id: null, summary: "retried the quarantined backlog (3)" }]);
    expect(all.body).toEqual({
      retried: 3,
      created: 2,
      duplicates: 0,
      still_failing: 1,
      status: "done",
      task_id: null,
    });
    expect(await allTransactions()).toHaveLength(2);
    expectEnvelope(
      await call("/api/v1/parse-failures/retry-all", { method: "POST", body: { institution: 5 } }),
      422,
      "VALIDATION_ERROR",
    );
  });

  it("retry-all of a backlog past one step: the request does 100 rows, queued steps the rest, each within half the Paid budget, its counts rising (issue 36)", async () => {
    await E.DB.prepare(
      `WITH RECURSIVE i(n) AS (SELECT 0 UNION ALL SELECT n + 1 FROM i WHERE n + 1 < 250)
       INSERT INTO parse_failures (id, status, failure_stage, from_email, subject, body, created_at, updated_at)
       SELECT 'pf_bulk_' || n, 'quarantined', 'no_parser_match', 'alerts@unknown.example', 'Alert',
         'Nothing a parser reads ' || n, '2024-10-' || (10 + n % 9) || 'T00:00:00Z', 'x' FROM i`,
    ).run();
    await E.DB.prepare("DELETE FROM activity_log").run();
    const sent: QueueMessage[] = [];
    const JOBS = { send: async (m: QueueMessage) => void sent.push(m) } as unknown as Queue<unknown>;
    const first = await call("/api/v1/parse-failures/retry-all", { method: "POST", env: { JOBS } });
    expect(first.body).toMatchObject({ status: "running", retried: 100, still_failing: 100 });
    const seen: number[] = [first.body.retried];
    while (sent.length) {
      const inv = perInvocation({ ...E, JOBS } as Env);
      await retryAllStep(inv.env, sent.shift()!);
      expect(inv.counts.d1Queries).toBeLessThanOrEqual(PLAN_LIMITS.paid.d1Queries / 2);
      expect(inv.counts.operations).toBeLessThanOrEqual(PLAN_LIMITS.paid.operations / 2);
      seen.push((await call("/api/v1/parse-failures/retry-all")).body.retried);
    }
    // 100, 200, 250: every row once (the cursor walks the backlog's order, newest first).
    expect(seen).toEqual([100, 200, 250]);
    const done = await call("/api/v1/parse-failures/retry-all");
    expect(done.body).toMatchObject({
      status: "done",
      retried: 250,
      created: 0,
      still_failing: 250,
      steps: 3,
    });
    // Each step's entry in the ledger.
    expect((await ledger()).map((e) => e.summary)).toEqual([
      "retried the quarantined backlog (100)",
      "retried the quarantined backlog (100)",
      "retried the quarantined backlog (50)",
    ]);
  });

  it("retry reports a duplicate when the transaction already exists", async () => {
    const raw = buildMime({ from: "CIBC <mailbox.noreply@cibc.com>", to: "me@example.com", body: CIBC_OK });
    await ingestEmail(raw, testDeps());
    await staleQuarantine("pf_dup", raw);
    const res = await call("/api/v1/parse-failures/pf_dup/retry", { method: "POST" });
    expect(res.body.status).toBe("duplicate");
    expect(res.body.date_file_name).toBe((await allTransactions())[0]!.DateFileName);
  });

  it("resolve creates the hand-entered transaction from the quarantined email", async () => {
    await E.DB.prepare(
      "INSERT INTO overrides (company, category, created_at, updated_at) VALUES ('Corner Bakery', 'Restaurant/Dining', ?, ?)",
    )
      .bind(now, now)
      .run();
    const id = await quarantine(unknownAlert("<g@x>"));
    await E.DB.prepare("DELETE FROM activity_log").run();
    const counter = countingD1(E.DB);
    const res = await call(`/api/v1/parse-failures/${id}/resolve`, {
      method: "POST",
      body: { date: "2024-10-19", amount: 23.75, company: "Corner Bakery" },
      env: { DB: counter.db },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ failure_id: id, status: "resolved" });
    // One entry (a template was learned, not merged), in the batch that inserted the row and
    // marked the failure resolved.
    expectEntryInBatch(counter, "transactions");
    expectEntryInBatch(counter, "parse_failures");
    expect(counter.trips[1]!.sql.some((q) => q.includes('from "parse_failures" where'))).toBe(true);
    expect(res.body.date_file_name).toMatch(/^2024\.10\.19_00\.00_[0-9a-f]{12}\.eml$/);
    const [tx] = await allTransactions();
    expect(tx).toMatchObject({
      Institution: "Manual",
      Amount: 23.75,
      Company: "Corner Bakery",
      TransactionType: "purchase",
      Category: "restaurant/dining",
      Date: "10/19/2024 00:00 PDT",
      FromEmail: "alerts@tangerine.example",
    });
    expect(tx!.FileName).toMatch(/^emails\//);
    expect(tx!.CategoryAudit).toMatchObject({ source: "override" });
    expectEnvelope(
      await call(`/api/v1/parse-failures/${id}/resolve`, {
        method: "POST",
        body: { date: "2024-10-19", amount: 1, company: "X" },
      }),
      409,
      "CONFLICT",
    );
    // Another email typed in as the same transaction: 409, and that failure stays quarantined.
    const twin = await quarantine(unknownAlert("<g2@x>"));
    const dup = await call(`/api/v1/parse-failures/${twin}/resolve`, {
      method: "POST",
      body: { date: "2024-10-19", amount: 23.75, company: "Corner Bakery" },
    });
    expect(expectEnvelope(dup, 409, "CONFLICT").details).toMatchObject({
      date_file_name: res.body.date_file_name,
    });
    expect((await allFailures()).find((f) => f.id === twin)).toMatchObject({ status: "quarantined" });
    expect(await allTransactions()).toHaveLength(1);
  });

  it("resolve refuses a typed amount the email does not print before saving; the saved resolve is undoable", async () => {
    const id = await quarantine(
      buildMime({
        from: "alerts@tangerine.example",
        subject: "Transaction alert",
        messageId: "<typo@x>",
        body: "On Oct 14, 2024 a purchase of $23.75 was charged to your account at CORNER BAKERY.",
      }),
    );
    const body = { date: "2024-10-14", amount: 2375, company: "CORNER BAKERY" };
    // Before: saved $2,375.00 and warned after (a template_reason), with no undo.
    const refused = expectEnvelope(
      await call(`/api/v1/parse-failures/${id}/resolve`, { method: "POST", body }),
      422,
      "NOT_IN_EMAIL",
    );
    expect(refused.error).toMatch(/2,375\.00 does not appear in the email/);
    expect(refused.details.unseen).toEqual([{ field: "amount", msg: expect.stringMatching(/2,375\.00/) }]);
    expect(refused.details.suggestion).toMatchObject({ amount: 23.75 });
    expect(await allTransactions()).toHaveLength(0);
    expect((await allFailures()).find((f) => f.id === id)).toMatchObject({ status: "quarantined" });
    // A date the email does not print (and not its sent day) is named too.
    const late = expectEnvelope(
      await call(`/api/v1/parse-failures/${id}/resolve`, {
        method: "POST",
        body: { ...body, amount: 23.75, date: "2024-09-02" },
      }),
      422,
      "NOT_IN_EMAIL",
    );
    expect(late.details.unseen.map((u: { field: string }) => u.field)).toEqual(["date"]);
    // Confirmed as typed: saved, with an Undo (the toast's X-Activity-Id, and the Activity list).
    const saved = await call(`/api/v1/parse-failures/${id}/resolve`, {
      method: "POST",
      body: { ...body, confirm_not_in_email: true },
    });
    expect(saved.status).toBe(200);
    expect(await allTransactions()).toHaveLength(1);
    const undo = saved.headers.get("x-activity-id");
    expect(undo).toMatch(/^act_/);
    const listed = await call("/api/v1/activity?limit=10");
    expect(listed.body.entries.find((e: { id: string }) => e.id === undo)).toMatchObject({
      reversible: true,
      summary: "resolved as CORNER BAKERY 2,375.00",
      before: { status: "quarantined", tx_id: null },
      after: { status: "resolved", transaction: { Amount: 2375, Company: "CORNER BAKERY" } },
    });
    const reverted = await call(`/api/v1/activity/${undo}/revert`, { method: "POST" });
    expect(reverted.status).toBe(200);
    // The failure is pending again and the row is gone: the person can resolve it right.
    expect(await allTransactions()).toHaveLength(0);
    expect((await allFailures()).find((f) => f.id === id)).toMatchObject({ status: "quarantined" });
    const right = await call(`/api/v1/parse-failures/${id}/resolve`, {
      method: "POST",
      body: { ...body, amount: 23.75 },
    });
    expect(right.status).toBe(200);
    expect((await allTransactions())[0]).toMatchObject({ Amount: 23.75 });
    // A resolve whose row was edited since: a stale 409, nothing undone.
    const txId = (await call("/api/v1/activity?limit=5")).body.entries[0].after.tx_id;
    await call(`/api/v1/transactions/${txId}/comment`, { method: "PUT", body: { comment: "checked" } });
    const stale = await call(`/api/v1/activity/${right.headers.get("x-activity-id")}/revert`, {
      method: "POST",
    });
    expect(expectEnvelope(stale, 409, "stale_revert").details.changed_fields).toEqual(["transaction"]);
    expect(await allTransactions()).toHaveLength(1);
  });

  it("resolve with an explicit category stamps a manual audit; bad bodies are 422", async () => {
    const id = await quarantine(unknownAlert("<h@x>"));
    const res = await call(`/api/v1/parse-failures/${id}/resolve`, {
      method: "POST",
      body: {
        date: "2024-10-19",
        amount: 5,
        company: "Kiosk",
        category: "Gifts",
        institution: "Tangerine",
        transaction_type: "preauth",
        confirm_not_in_email: true,
      },
    });
    expect(res.status).toBe(200);
    expect((await allTransactions())[0]).toMatchObject({
      Category: "gifts",
      Institution: "Tangerine",
      TransactionType: "preauth",
    });
    expect((await allTransactions())[0]!.CategoryAudit).toMatchObject({ source: "manual" });
    const id2 = await quarantine(unknownAlert("<i@x>"));
    for (const body of [
      {},
      { date: "19/10/2024", amount: 5, company: "K" },
      { date: "2024-10-19", amount: 0, company: "K" },
      { date: "2024-10-19", amount: 5, company: "" },
    ]) {
      expectEnvelope(
        await call(`/api/v1/parse-failures/${id2}/resolve`, { method: "POST", body }),
        422,
        "VALIDATION_ERROR",
      );
    }
  });

  it("to-fixture: 409 on Workers (no source checkout), 404 for unknown ids, 405 in demo mode", async () => {
    const id = await quarantine(unknownAlert("<j@x>"));
    const res = await call(`/api/v1/parse-failures/${id}/to-fixture`, {
      method: "POST",
      body: { institution: "Tangerine" },
    });
    const env409 = expectEnvelope(res, 409, "NO_SOURCE_CHECKOUT");
    expect(env409.error).toMatch(/source checkout/);
    expectEnvelope(
      await call("/api/v1/parse-failures/pf_nope/to-fixture", { method: "POST" }),
      404,
      "NOT_FOUND",
    );
    const demo = await call(`/api/v1/parse-failures/${id}/to-fixture`, {
      method: "POST",
      env: { DEMO_MODE: "true" },
    });
    expect(demo.status).toBe(405);
  });

  it("the eight operations are documented under the parse-failures tag", async () => {
    const doc = (await call("/openapi.json")).body;
    const ops = Object.entries(doc.paths as Record<string, Record<string, any>>)
      .filter(([p]) => p.startsWith("/api/v1/parse-failures"))
      .flatMap(([, methods]) => Object.values(methods).map((o: any) => [o.operationId, o.tags]));
    expect(Object.fromEntries(ops)).toEqual({
      listParseFailures: ["parse-failures"],
      getParseFailure: ["parse-failures"],
      dismissParseFailure: ["parse-failures"],
      retryParseFailure: ["parse-failures"],
      retryAllParseFailures: ["parse-failures"],
      getRetryAllStatus: ["parse-failures"],
      resolveParseFailure: ["parse-failures"],
      proposeParseFailureTemplate: ["parse-failures"],
      parseFailureToFixture: ["parse-failures"],
    });
  });

  it("reads many failures by id in one round trip, past D1's 100 bound values", async () => {
    const a = await quarantine(unknownAlert("<m1@x>"));
    const b = await quarantine(unknownAlert("<m2@x>"));
    const ids = [...Array.from({ length: 150 }, (_, i) => `pf_none_${i}`), a, b];
    const counter = countingD1(E.DB);
    const rows = await getFailures(getDb(counter.db), ids);
    expect(rows.map((r) => r.id).sort()).toEqual([a, b].sort());
    expect(counter.trips).toHaveLength(1);
    expect(await getFailures(getDb(E.DB), [])).toEqual([]);
  });

  it("health counts the 7-day quarantine", async () => {
    await quarantine(unknownAlert("<k@x>"));
    const health = await call("/api/v1/health", { now: "2024-10-20T12:30:00Z" });
    expect(health.body.parse_failures_7d).toBe(1);
  });
});
