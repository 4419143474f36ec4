import { env } from "cloudflare:test";
import { beforeEach, describe, expect, it } from "vitest";
import { listIgnoreRules, loadIgnoreMatcher } from "../../src/domains/ignore-rules/service";
import { countingD1 } from "../../bench/lib/d1-count";
import { brokenDb } from "../helpers/broken";
import { seedToken } from "../helpers/auth";
import { call, expectEnvelope } from "../helpers/http";
import { expectEntryInBatch, expectNoLoneEntry } from "../helpers/ledger-batch";

const enc = encodeURIComponent;
const IR = "/api/v1/ignore-rules";
const NOW = "2025-06-15T12:00:00Z";
const add = (pattern: unknown, headers?: Record<string, string>) =>
  call(IR, { method: "POST", body: { pattern }, headers });
const apply = (body: unknown) => call(`${IR}/apply`, { method: "POST", body });

let seq = 0;
async function tx(company: string, opts: { ignored?: boolean; deleted?: boolean; month?: string } = {}) {
  seq += 1;
  await env.DB.prepare(
    `INSERT INTO transactions (ForwardedTo, DateFileName, TransactionHash, Company, Category, Amount, Ignored, DeletedAt)
     VALUES ('me@example.com', ?, ?, ?, 'misc', 5, ?, ?)`,
  )
    .bind(
      `${opts.month ?? "2025.06"}.02_10.00_i${seq}.eml`,
      `ih${seq}`,
      company,
      opts.ignored ? 1 : 0,
      opts.deleted ? "x" : null,
    )
    .run();
}
const ignoredOf = async (company: string) =>
  (
    await env.DB.prepare("SELECT Ignored FROM transactions WHERE Company = ? ORDER BY rowid")
      .bind(company)
      .all<{ Ignored: number }>()
  ).results.map((r) => r.Ignored);

beforeEach(async () => {
  await env.DB.batch(
    [
      "transactions",
      "ignore_rules",
      "dismissed_ignore_suggestions",
      "merchant_aliases",
      "config_versions",
      "api_tokens",
    ].map((t) => env.DB.prepare(`DELETE FROM ${t}`)),
  );
  await env.FILES.delete([
    "backups/config/ignore_rules.json",
    "backups/config/dismissed_ignore_suggestions.json",
  ]);
});

describe("ignore rules: list, add, delete", () => {
  it("lists empty with version 0; add returns the list; duplicates (any case) are 409", async () => {
    expect((await call(IR)).body).toEqual({ rules: [], count: 0, version: 0 });
    const res = await add("  E-TRANSFER FEE ");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ rules: [{ pattern: "E-TRANSFER FEE" }], count: 1, version: 1 });
    await add("Amazon Refund");
    expect((await call(IR)).body.rules).toEqual([
      { pattern: "Amazon Refund" },
      { pattern: "E-TRANSFER FEE" },
    ]);
    expectEnvelope(await add("e-transfer fee"), 409, "CONFLICT");
  });

  it("deletes (any case, URL-encoded) and 404s afterwards", async () => {
    await add("INTERNAL XFER / SAVINGS");
    const res = await call(`${IR}/${enc("internal xfer / savings")}`, { method: "DELETE" });
    expect(res.status).toBe(200);
    expect(res.body.detail).toContain("INTERNAL XFER / SAVINGS");
    expect((await call(IR)).body).toEqual({ rules: [], count: 0, version: 2 });
    expectEnvelope(
      await call(`${IR}/${enc("INTERNAL XFER / SAVINGS")}`, { method: "DELETE" }),
      404,
      "NOT_FOUND",
    );
  });

  it("writes the R2 backup; reads fall back to it when D1 fails", async () => {
    await add("PAYPAL TRANSFER");
    const saved = (await (await env.FILES.get("backups/config/ignore_rules.json"))!.json()) as any;
    expect(saved).toEqual({ version: 1, items: [{ pattern: "PAYPAL TRANSFER" }] });
    const down = await listIgnoreRules({ env: { ...env, DB: brokenDb } });
    expect(down).toEqual({ rules: [{ pattern: "PAYPAL TRANSFER" }], count: 1, version: 1 });
  });

  it("422 for a missing, empty, over-long or non-string pattern", async () => {
    for (const body of [
      {},
      { pattern: "" },
      { pattern: "x".repeat(201) },
      { pattern: 4 },
      { pattern: "a", b: 1 },
    ]) {
      const e = expectEnvelope(await call(IR, { method: "POST", body }), 422, "VALIDATION_ERROR");
      expect(e.details.errors.length).toBeGreaterThan(0);
    }
  });
});

describe("matching (what ingestion pins)", () => {
  it("matches exactly, after normalization and through an alias", async () => {
    await add("NETFLIX.COM");
    await call("/api/v1/merchant-aliases/SPOTIFY%20P0123", {
      method: "PUT",
      body: { canonical_name: "Spotify AB" },
    });
    await add("Spotify AB");
    const matcher = await loadIgnoreMatcher({ env });
    expect(matcher("netflix.com")).toBe("NETFLIX.COM");
    expect(matcher("NETFLIX.COM #4455, LOS GATOS CA")).toBe("NETFLIX.COM");
    expect(matcher("SPOTIFY P0123")).toBe("Spotify AB");
    expect(matcher("NETFLIX DVD")).toBeNull();
    expect(matcher(null)).toBeNull();
  });
});

describe("POST /api/v1/ignore-rules/apply", () => {
  it("flips only non-deleted, un-ignored matching rows; a rerun is a no-op", async () => {
    await tx("NETFLIX.COM");
    await tx("Netflix.com #12");
    await tx("NETFLIX.COM", { ignored: true });
    await tx("NETFLIX.COM", { deleted: true });
    await tx("SPOTIFY");
    await add("netflix.com");
    await add("Spotify");
    await env.DB.prepare("DELETE FROM activity_log").run();
    const counter = countingD1(env.DB);
    const res = await call(`${IR}/apply`, { method: "POST", body: {}, env: { DB: counter.db } });
    expect(res.status).toBe(200);
    // Its entry (the merchants flipped) rides in the update's own batch.
    expectEntryInBatch(counter, "transactions");
    const entries = async () => (await call("/api/v1/activity")).body.entries;
    expect((await entries())[0]).toMatchObject({
      operation_id: "applyIgnoreRules",
      summary: "Applied 2 ignore rules: 3 transactions set Ignored",
      after: { ignored: true },
      reversible: false,
    });
    expect(res.body).toEqual({
      results: [
        { pattern: "netflix.com", matched: 3, updated: 2 },
        { pattern: "Spotify", matched: 1, updated: 1 },
      ],
      total_matched: 4,
      total_updated: 3,
    });
    expect(await ignoredOf("NETFLIX.COM")).toEqual([1, 1, 0]);
    expect(await ignoredOf("Netflix.com #12")).toEqual([1]);
    counter.reset();
    const again = await call(`${IR}/apply`, {
      method: "POST",
      body: { pattern: null },
      env: { DB: counter.db },
    });
    expect(again.body.total_updated).toBe(0);
    // Nothing flipped, nothing written: its one entry is the door's, with the verb's summary.
    expectNoLoneEntry(counter);
    expect((await entries()).map((e: { summary: string }) => e.summary).sort()).toEqual([
      "Applied 2 ignore rules: 0 transactions set Ignored",
      "Applied 2 ignore rules: 3 transactions set Ignored",
    ]);
    expect(again.body.total_matched).toBe(4);
  });

  it("applies one named rule (any case); 404 for an unknown one; 422 for a bad body", async () => {
    await tx("NETFLIX");
    await tx("SPOTIFY");
    await add("Netflix");
    await add("Spotify");
    const res = await apply({ pattern: "NETFLIX" });
    expect(res.body).toEqual({
      results: [{ pattern: "Netflix", matched: 1, updated: 1 }],
      total_matched: 1,
      total_updated: 1,
    });
    expect(await ignoredOf("SPOTIFY")).toEqual([0]);
    expectEnvelope(await apply({ pattern: "Hulu" }), 404, "NOT_FOUND");
    expectEnvelope(await apply({ pattern: 3 }), 422, "VALIDATION_ERROR");
    expectEnvelope(await call(`${IR}/apply`, { method: "POST" }), 422, "VALIDATION_ERROR");
  });

  it("a company matched by two rules is flipped (and counted as updated) once", async () => {
    await tx("NETFLIX #1");
    await add("Netflix");
    await add("NETFLIX #1");
    const res = await apply({});
    expect(res.body.total_matched).toBe(2);
    expect(res.body.total_updated).toBe(1);
  });
});

describe("ignore-rule suggestions", () => {
  const suggestions = (q = "") => call(`${IR}/suggestions${q}`, { now: NOW });

  it("suggests merchants with ≥3 recent rows of which ≥60% are ignored, most ignored first", async () => {
    for (const ignored of [true, true, false]) await tx("BANK TRANSFER", { ignored });
    for (const ignored of [true, true, true, true]) await tx("Venmo", { ignored });
    for (const ignored of [true, false, false]) await tx("COFFEE", { ignored });
    for (const ignored of [true, true]) await tx("TWO ONLY", { ignored });
    for (let i = 0; i < 3; i++) await tx("OLD", { ignored: true, month: "2023.01" });
    const res = await suggestions();
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      suggestions: [
        { merchant: "Venmo", total_count: 4, ignored_count: 4, share: 1 },
        { merchant: "BANK TRANSFER", total_count: 3, ignored_count: 2, share: 0.667 },
      ],
      count: 2,
    });
    expect((await suggestions("?months=24")).body.count).toBe(2);
  });

  it("leaves out merchants pinned by a rule and dismissed merchants; undismiss brings them back", async () => {
    for (let i = 0; i < 3; i++) await tx("VENMO #1", { ignored: true });
    for (let i = 0; i < 3; i++) await tx("PAYPAL", { ignored: true });
    await add("Venmo");
    expect((await suggestions()).body.suggestions.map((s: { merchant: string }) => s.merchant)).toEqual([
      "PAYPAL",
    ]);
    const d = await call(`${IR}/suggestions/dismissed`, {
      method: "POST",
      body: { merchant: "PayPal" },
      now: NOW,
    });
    expect(d.status).toBe(200);
    expect((await suggestions()).body.count).toBe(0);
    expect((await suggestions()).body).toEqual({ suggestions: [], count: 0 });
    const listed = await call(`${IR}/suggestions/dismissed`);
    expect(listed.body).toEqual({
      dismissed: [{ merchant: "PayPal", dismissed_at: "2025-06-15T12:00:00.000Z" }],
      count: 1,
    });
    expect(await env.FILES.get("backups/config/dismissed_ignore_suggestions.json")).not.toBeNull();
    const u = await call(`${IR}/suggestions/dismissed/PAYPAL`, { method: "DELETE" });
    expect(u.status).toBe(200);
    expect((await suggestions()).body.count).toBe(1);
    expectEnvelope(await call(`${IR}/suggestions/dismissed/PAYPAL`, { method: "DELETE" }), 404, "NOT_FOUND");
  });

  it("422 for a bad months value or dismissal body", async () => {
    expectEnvelope(await suggestions("?months=0"), 422, "VALIDATION_ERROR");
    expectEnvelope(await suggestions("?months=x"), 422, "VALIDATION_ERROR");
    expectEnvelope(
      await call(`${IR}/suggestions/dismissed`, { method: "POST", body: {} }),
      422,
      "VALIDATION_ERROR",
    );
    expectEnvelope(
      await call(`${IR}/suggestions/dismissed`, { method: "POST", body: { merchant: " " } }),
      422,
      "VALIDATION_ERROR",
    );
  });
});

describe("token scopes", () => {
  it("a read token may read rules and suggestions but not write (403)", async () => {
    const { token } = await seedToken("read", "r");
    const headers = { Authorization: `Bearer ${token}` };
    expect((await call(IR, { headers })).status).toBe(200);
    expect((await call(`${IR}/suggestions`, { headers })).status).toBe(200);
    expect((await call(`${IR}/suggestions/dismissed`, { headers })).status).toBe(200);
    expectEnvelope(await add("X", headers), 403, "FORBIDDEN");
    expectEnvelope(await call(`${IR}/apply`, { method: "POST", body: {}, headers }), 403, "FORBIDDEN");
    expectEnvelope(await call(`${IR}/X`, { method: "DELETE", headers }), 403, "FORBIDDEN");
  });
});
