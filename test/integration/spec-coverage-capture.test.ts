// SPEC.md CaptureSummary: the share of statement rows that an ALERT EMAIL already captured, present
// when reconciled rows exist. Hand-added rows are not alerts, so they never count as caught, and
// GET /coverage agrees with the statement's own `capture` figure (issue 23 point 5).
import { env } from "cloudflare:test";
import { beforeEach, describe, expect, it } from "vitest";
import { pdfFixture, skipWithoutTidingsPdfs } from "../fixtures/statements";
import { call } from "../helpers/http";
import { seedTx } from "../helpers/seed";

const NOW = "2025-04-02T12:00:00.000Z";
const SIMPLII = "Simplii_Chequing_2025-02-27_to_2025-03-30";

async function reset() {
  await env.DB.batch(
    ["statements", "statement_rows", "transactions", "activity_log", "overrides", "app_config"].map((t) =>
      env.DB.prepare(`DELETE FROM ${t}`),
    ),
  );
  for (const o of (await env.FILES.list({ prefix: "statements/" })).objects) await env.FILES.delete(o.key);
}

async function upload() {
  const fd = new FormData();
  fd.append("file", new File([pdfFixture(SIMPLII)], "simplii.pdf", { type: "application/pdf" }));
  const res = await call("/api/v1/statements/upload", { method: "POST", rawBody: fd, now: NOW });
  expect(res.status).toBe(200);
  const detail = (await call(`/api/v1/statements/${res.body.statement_id}`, { now: NOW })).body;
  return { ...detail, statement_id: res.body.statement_id as string };
}

/** A row typed in by hand (POST /api/v1/transactions), the way a person fills a gap. */
async function handAdded(date: string, amount: number, company: string, transaction_type: string) {
  const res = await call("/api/v1/transactions", {
    method: "POST",
    body: { date, amount, company, transaction_type },
    now: NOW,
  });
  expect(res.status, res.text).toBeLessThan(300);
}

describe("SPEC CaptureSummary: alert emails caught it, hand-added rows did not", () => {
  beforeEach(reset);

  it("a hand-added row matching a statement row is not caught; /coverage equals the statement's figure", async ({
    skip,
  }) => {
    skipWithoutTidingsPdfs(skip);
    // An alert email caught the Mar 03 withdrawal; the Mar 19 one was typed in by hand.
    await seedTx({
      DateFileName: "2025.03.03_10.00_b.eml",
      Amount: 215.44,
      TransactionType: "purchase",
      Company: "Maplewood Stationery",
    });
    await handAdded("2025-03-19", 343.91, "Streaming", "purchase");
    const d = await upload();
    const matched = d.transactions.filter((t: { reconcile_tier: string }) => t.reconcile_tier === "matched");
    // Both stored rows were matched by the reconciler: only the alert's counts as caught.
    expect(matched.map((t: { date: string }) => t.date).sort()).toEqual(["2025-03-03", "2025-03-19"]);
    expect(d.capture).toMatchObject({ caught: 1, total: d.transactions.length });

    const cov = (await call("/api/v1/coverage", { now: NOW })).body.capture;
    expect(cov).not.toBeNull();
    expect(cov.overall).toMatchObject({ caught: d.capture.caught, total: d.capture.total });
    expect(cov.by_institution).toHaveLength(1);
    expect(cov.by_institution[0]).toMatchObject({ caught: 1, total: d.capture.total });
    const byType = Object.fromEntries(
      cov.by_type.map((b: { type: string; caught: number }) => [b.type, b.caught]),
    );
    expect(byType.withdrawal).toBe(1);
  });

  it("importing the statement does not change the figure (imported rows are not alerts)", async ({
    skip,
  }) => {
    skipWithoutTidingsPdfs(skip);
    const d = await upload();
    const before = (await call("/api/v1/coverage", { now: NOW })).body.capture;
    expect(before.overall).toEqual({ caught: 0, total: d.transactions.length, rate: 0 });
    const imp = await call("/api/v1/statements/import", {
      method: "POST",
      body: { statement_id: d.statement_id, actions: [] },
      now: NOW,
    });
    expect(imp.status, imp.text).toBe(200);
    const after = (await call("/api/v1/coverage", { now: NOW })).body.capture;
    expect(after.overall).toEqual(before.overall);
  });

  it("hand-added rows are not alert days in the cadence either", async () => {
    await handAdded("2025-03-19", 12.5, "Corner Shop", "purchase");
    const cov = (await call("/api/v1/coverage", { now: NOW })).body;
    expect(cov.institutions).toEqual([]);
    expect(cov.capture).toBeNull();
  });
});
