import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { countingD1, tally } from "../../bench/lib/d1-count";
import { createApp } from "../../src/app";
import type { Env } from "../../src/env";
import { fixedClock } from "../../src/lib/clock";
import { bearer, resetState, seedToken } from "../helpers/auth";
import { call, expectEnvelope } from "../helpers/http";
import { clearTransactions, seedTx } from "../helpers/seed";

const NOW = "2024-06-20T12:00:00Z";
const get = (
  qs: string,
  now = NOW,
  extra: { headers?: Record<string, string>; env?: Record<string, string> } = {},
) => call(`/api/v1/merchants/intelligence?${qs}`, { now, ...extra });
const clearCache = () =>
  env.DB.prepare("DELETE FROM kv_state WHERE key LIKE 'merchant_intelligence:%'").run();
const tx = (day: string, Company: string | null, Amount: number, more: Record<string, unknown> = {}) =>
  seedTx({
    DateFileName: `${day}_12.00_${Math.random().toString(36).slice(2)}.eml`,
    Company,
    Amount,
    ...more,
  });

describe("merchant intelligence", () => {
  beforeAll(async () => {
    await clearTransactions();
    // Netflix: 15.99 for three months, then 17.99 (a price change); spelling changes in between.
    for (const m of ["01", "02", "03"])
      await tx(`2024.${m}.15`, m === "01" ? "NETFLIX" : "Netflix", 15.99, { Category: "subscriptions" });
    for (const m of ["04", "05", "06"])
      await tx(`2024.${m}.15`, "Netflix", 17.99, { Category: "subscriptions" });
    // Cafe: 4 of 6 months with changing totals (variable); two visits in January.
    await tx("2024.01.03", "Cafe", 20);
    await tx("2024.01.20", "cafe ", 20, { Category: "restaurant/dining" });
    await tx("2024.03.03", "Cafe", 50);
    await tx("2024.04.03", "Cafe", 60, { TransactionType: "preauth" });
    await seedTx({ DateFileName: "2024.06.30_23.59_edge.eml", Company: "Cafe", Amount: 50 });
    // Excluded: outside the window on both sides, ignored, deleted, deposits.
    await seedTx({ DateFileName: "2024.07.01_00.00_next.eml", Company: "Cafe", Amount: 999 });
    await seedTx({ DateFileName: "2023.12.31_23.59_prev.eml", Company: "Gym", Amount: 30 });
    await tx("2024.06.10", "Cafe", 100, { Ignored: 1 });
    await tx("2024.05.10", "Cafe", 70, { DeletedAt: "2024-05-11T00:00:00Z" });
    await tx("2024.06.01", "Employer", 3000, { TransactionType: "e-transfer", Category: "income" });
    // Gym: fixed for four months, then gone (churned). New Shop: only in the last month.
    for (const m of ["01", "02", "03", "04"]) await tx(`2024.${m}.01`, "Gym", 30, { Category: "fitness" });
    await tx("2024.06.05", "New Shop", 12, { Category: "home goods" });
    // A withdrawal without a company: no merchant, but part of the month's spend.
    await tx("2024.06.07", null, 200, { TransactionType: "withdrawal", Category: null });
  });
  beforeEach(clearCache);
  afterAll(resetState);

  it("classifies merchants over the window with hand-computed totals", async () => {
    const res = await get("month=2024-06&months=6");
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      month: "2024-06",
      months_analyzed: 6,
      period: { from: "2024-01", to: "2024-06" },
    });
    const byName = Object.fromEntries(res.body.merchants.map((m: { company: string }) => [m.company, m]));
    expect(res.body.merchants.map((m: { company: string }) => m.company)).toEqual([
      "Cafe",
      "Gym",
      "Netflix",
      "New Shop",
    ]);
    expect(byName.Cafe).toEqual({
      company: "Cafe",
      total: 200,
      monthly_amounts: [40, 0, 50, 60, 0, 50],
      monthly_counts: [2, 0, 1, 1, 0, 1],
      months_active: 4,
      avg_amount: 50,
      frequency_type: "variable",
      category: "coffee & cafes",
      // Four months of six, but on irregular days: a café habit, not a commitment.
      is_recurring: false,
      cadence: null,
      usual_charge: null,
      is_new: false,
      is_churned: false,
      price_change: null,
    });
    expect(byName.Netflix).toMatchObject({
      total: 101.94,
      frequency_type: "fixed",
      category: "subscriptions",
      is_recurring: true,
      cadence: "monthly",
      usual_charge: 17.99,
      price_change: { old_amount: 15.99, new_amount: 17.99, since_month: "2024-04" },
    });
    expect(byName.Gym).toMatchObject({
      total: 120,
      frequency_type: "fixed",
      is_churned: true,
      is_recurring: false,
    });
    expect(byName["New Shop"]).toMatchObject({ frequency_type: "none", is_new: true, is_recurring: false });
  });

  it("summarizes burn rate, discretionary spend, new, churned and price changes", async () => {
    const { body } = await get("month=2024-06");
    // Burn: Netflix 17.99 a month (the café is not recurring). June spend: 17.99 + 50 + 12 + 200 = 279.99.
    expect(body.summary).toEqual({
      recurring_burn_rate: 17.99,
      recurring_count: 1,
      discretionary_this_month: 262,
      new_merchants: ["New Shop"],
      churned_merchants: ["Gym"],
      price_changes: [{ merchant: "Netflix", old_amount: 15.99, new_amount: 17.99, since_month: "2024-04" }],
    });
  });

  it("a shorter window scales the rules and includes the boundary months only", async () => {
    const { body } = await get("month=2024-07&months=3");
    expect(body.period).toEqual({ from: "2024-05", to: "2024-07" });
    const cafe = body.merchants.find((m: { company: string }) => m.company === "Cafe");
    expect(cafe).toMatchObject({ monthly_amounts: [0, 50, 999], months_active: 2, frequency_type: "lumpy" });
    expect(body.summary.new_merchants).toEqual([]);
    expect(body.summary.churned_merchants).toEqual([]);
  });

  it("the longest window the input allows (24 months) stays within D1's 32 arguments per SQL function", async () => {
    // Issue 36: json_array() took 2 × months + 5 arguments (53 at 24 months): a 500 on D1 deployed.
    // The limits wrapper of the test setup fails this test on any breach.
    const long = await get("month=2024-06&months=24");
    expect(long.status).toBe(200);
    expect(long.body.period).toEqual({ from: "2022-07", to: "2024-06" });
    const netflix = long.body.merchants.find((m: { company: string }) => m.company === "Netflix");
    expect(netflix.monthly_amounts).toEqual([...Array(18).fill(0), 15.99, 15.99, 15.99, 17.99, 17.99, 17.99]);
  });

  it("defaults to the current month in the configured timezone", async () => {
    const late = "2024-07-01T05:00:00Z"; // still June 30 in Los Angeles
    expect((await get("", late)).body.month).toBe("2024-06");
    expect((await get("", late, { env: { DEFAULT_TIMEZONE: "UTC" } })).body.period).toEqual({
      from: "2024-02",
      to: "2024-07",
    });
  });

  it("caches for one hour per (month, months), then recomputes", async () => {
    const first = await get("month=2024-06&months=2", "2024-06-20T12:00:00Z");
    await tx("2024.06.21", "Late Shop", 5);
    const cached = await get("month=2024-06&months=2", "2024-06-20T12:59:00Z");
    expect(cached.body).toEqual(first.body);
    expect(
      (await get("month=2024-06&months=3", "2024-06-20T12:30:00Z")).body.summary.new_merchants,
    ).toContain("Late Shop");
    const fresh = await get("month=2024-06&months=2", "2024-06-20T13:01:00Z");
    expect(fresh.body.summary.new_merchants).toContain("Late Shop");
    await env.DB.prepare("DELETE FROM transactions WHERE Company = 'Late Shop'").run();
  });

  it("the cache write begins after the response, which never waits for it", async () => {
    let release = () => {};
    const gate = new Promise<void>((r) => {
      release = r;
    });
    const counter = countingD1(env.DB, {
      hold: (q) => (/^insert into "kv_state"/i.test(q) ? gate : undefined),
    });
    const cacheRows = async () =>
      (
        await env.DB.prepare(
          "SELECT count(*) AS n FROM kv_state WHERE key LIKE 'merchant_intelligence:%'",
        ).first<{ n: number }>()
      )?.n;
    const send = async () => {
      counter.reset();
      const ctx = createExecutionContext();
      const req = new Request("http://localhost/api/v1/merchants/intelligence?month=2024-06&months=6");
      const res = await createApp({ clock: fixedClock(NOW) }).fetch(
        req,
        { ...env, DB: counter.db } as Env,
        ctx,
      );
      const body = await res.json();
      counter.settle();
      return { res, body, ctx };
    };
    const cold = await send();
    // The answer came while its cache write was held: the response does not wait for it.
    expect(cold.res.status).toBe(200);
    expect(await cacheRows()).toBe(0);
    expect(tally(counter.trips)).toMatchObject({ background: 0 });
    release();
    await waitOnExecutionContext(cold.ctx);
    expect(tally(counter.trips)).toMatchObject({ background: 1 });
    expect(await cacheRows()).toBe(1);
    const warm = await send();
    await waitOnExecutionContext(warm.ctx);
    expect(warm.body).toEqual(cold.body);
    expect(tally(counter.trips)).toMatchObject({ background: 0 });
  });

  it("the window is computed unless the cache row is fresh and in shape", async () => {
    const clean = (await get("month=2024-06&months=2")).body;
    const key = "merchant_intelligence:2024-06:2";
    const stamp = (value: string, at: string) =>
      env.DB.prepare("UPDATE kv_state SET value = ?, updated_at = ? WHERE key = ?")
        .bind(value, at, key)
        .run();
    const answer = async () => {
      const res = await get("month=2024-06&months=2", NOW);
      expect(res.status).toBe(200);
      return res.body;
    };
    // Fresh but not in shape; an hour old, or written after now (a clock moved back): computed.
    for (const at of ["2024-06-20T11:30:00.000Z", "2024-06-20T11:00:00.000Z", "2024-06-20T12:00:01.000Z"]) {
      await stamp('{"junk":1}', at);
      expect(await answer(), at).toEqual(clean);
    }
    // Fresh and in shape: the cached answer, even when the journal changed.
    await stamp(JSON.stringify({ ...clean, months_analyzed: 99 }), "2024-06-20T11:30:00.000Z");
    expect((await answer()).months_analyzed).toBe(99);
  });

  it("rejects bad query parameters with the 422 envelope", async () => {
    for (const qs of [
      "months=0",
      "months=25",
      "months=abc",
      "months=2.5",
      "month=2024-13",
      "month=2024-1",
      "month=junk",
    ]) {
      const e = expectEnvelope(await get(qs), 422, "VALIDATION_ERROR");
      expect(e.details.errors.length, qs).toBeGreaterThan(0);
    }
  });

  it("a read token may GET it", async () => {
    const { token } = await seedToken("read");
    const res = await get("month=2024-06", NOW, { headers: bearer(token) });
    expect(res.status).toBe(200);
    expectEnvelope(await get("month=2024-06", NOW, { headers: bearer("fin_nope") }), 401, "UNAUTHORIZED");
  });
});
