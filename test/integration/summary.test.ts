import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { getDb } from "../../src/db";
import * as budgetQ from "../../src/domains/budget/history-queries";
import { yearStatement } from "../../src/domains/income/queries";
import { windowQuery } from "../../src/domains/merchants/queries";
import * as summaryQ from "../../src/domains/summary/queries";
import { rangeBounds } from "../../src/lib/month";
import { call, expectEnvelope } from "../helpers/http";
import { clearTransactions, seedTx } from "../helpers/seed";

// Pacific time (the default zone). "Now" is 2024-03-10 12:00 PDT → the current month is 2024-03, day 10.
const NOW = "2024-03-10T19:00:00Z";
const s = (month: string, extra: Record<string, unknown> = {}) =>
  call(`/api/v1/summary?month=${month}`, { now: NOW, ...extra });

describe("monthly summary", () => {
  beforeAll(async () => {
    await clearTransactions();
    // February 2024 (previous month)
    await seedTx({
      DateFileName: "2024.02.01_00.00_a.eml",
      Amount: 100,
      Category: "groceries",
      Company: "Safeway",
    });
    await seedTx({
      DateFileName: "2024.02.05_10.00_b.eml",
      Amount: 40,
      Category: "groceries",
      Company: "SAFEWAY",
    });
    await seedTx({ DateFileName: "2024.02.09_10.00_c.eml", Amount: 60, Category: "dining", Company: "Pho" });
    await seedTx({ DateFileName: "2024.02.20_10.00_d.eml", Amount: 300, Category: "dining", Company: "Keg" });
    await seedTx({
      DateFileName: "2024.02.29_23.59_e.eml",
      Amount: 1000,
      Category: "income",
      Company: "Employer",
      TransactionType: "deposit",
    });
    // March 2024 (current month); the 31st row belongs to March, the April 1st row does not.
    await seedTx({
      DateFileName: "2024.03.02_09.00_f.eml",
      Amount: 50,
      Category: "groceries",
      Company: "Safeway",
    });
    await seedTx({
      DateFileName: "2024.03.08_09.00_g.eml",
      Amount: 20.55,
      Category: "Groceries",
      Company: "Safeway",
    });
    await seedTx({
      DateFileName: "2024.03.09_09.00_h.eml",
      Amount: 500,
      Category: "travel",
      Company: "Air Canada",
      Comment: "flight to mom",
    });
    await seedTx({
      DateFileName: "2024.03.09_10.00_i.eml",
      Amount: 80,
      Category: "gasoline",
      Company: "Shell",
      TransactionType: "preauth",
    });
    await seedTx({
      DateFileName: "2024.03.09_11.00_j.eml",
      Amount: 40,
      Category: "cash",
      Company: null,
      TransactionType: "withdrawal",
    });
    await seedTx({ DateFileName: "2024.03.09_12.00_k.eml", Amount: 999, Category: "groceries", Ignored: 1 });
    await seedTx({
      DateFileName: "2024.03.09_13.00_l.eml",
      Amount: 777,
      Category: "groceries",
      DeletedAt: "2024-03-09T00:00:00Z",
    });
    await seedTx({
      DateFileName: "2024.03.05_13.00_m.eml",
      Amount: 25,
      Category: "income",
      Company: "Riley",
      TransactionType: "e-transfer",
    });
    await seedTx({
      DateFileName: "2024.03.06_13.00_n.eml",
      Amount: 75,
      Category: "income",
      Company: "riley",
      TransactionType: "e-transfer",
    });
    await seedTx({ DateFileName: "2024.03.31_23.59_o.eml", Amount: 10, Category: "coffee", Company: "Cafe" });
    await seedTx({
      DateFileName: "2024.04.01_00.00_p.eml",
      Amount: 5000,
      Category: "coffee",
      Company: "Cafe",
    });
    // January 2024 for history
    await seedTx({
      DateFileName: "2024.01.15_10.00_q.eml",
      Amount: 120,
      Category: "groceries",
      Company: "Safeway",
    });
  });

  it("totals, counts and breakdowns; deleted, ignored and deposit rows excluded from spending", async () => {
    const res = await s("2024-03");
    expect(res.status).toBe(200);
    const cur = res.body.current;
    expect(cur.total_spending).toBe(700.55);
    expect(res.body.total_spent).toBe(700.55);
    expect(cur.spending_count).toBe(6);
    expect(cur.by_category).toEqual({
      travel: { amount: 500, count: 1 },
      gasoline: { amount: 80, count: 1 },
      groceries: { amount: 70.55, count: 2 },
      cash: { amount: 40, count: 1 },
      coffee: { amount: 10, count: 1 },
    });
    expect(cur.by_company.Safeway).toEqual({ amount: 70.55, count: 2, category: "groceries" });
    expect(cur.top_categories[0]).toEqual({ name: "travel", amount: 500, count: 1 });
    expect(cur.deposit_total).toBe(100);
    expect(cur.deposit_count).toBe(2);
    expect(Object.values(res.body.deposits_by_company)).toEqual([{ amount: 100, count: 2 }]);
  });

  it("month-over-month deltas", async () => {
    const res = await s("2024-03");
    expect(res.body.previous.total_spending).toBe(500);
    expect(res.body.delta_amount).toBe(200.55);
    expect(res.body.delta_percent).toBe(40.11);
    const d = Object.fromEntries(res.body.category_deltas.map((x: { category: string }) => [x.category, x]));
    expect(d.travel).toEqual({
      category: "travel",
      current: 500,
      previous: 0,
      delta_amount: 500,
      delta_pct: null,
    });
    expect(d.dining).toEqual({
      category: "dining",
      current: 0,
      previous: 360,
      delta_amount: -360,
      delta_pct: -100,
    });
    expect(d.groceries).toMatchObject({ current: 70.55, previous: 140, delta_amount: -69.45 });
    expect(res.body.category_deltas[0].category).toBe("travel");
  });

  it("anomalies against the prior 6 months, with comment annotation", async () => {
    const res = await s("2024-03");
    const travel = res.body.anomalies.find((a: { category: string }) => a.category === "travel");
    // No travel in Sep–Feb: baseline 0, 500 ≥ 100 → high; the commented flight explains 500 of it.
    expect(travel).toMatchObject({ current: 500, baseline: 0, severity: "high", annotated_amount: 500 });
    const gas = res.body.anomalies.find((a: { category: string }) => a.category === "gasoline");
    // 80 with no history is below the 100 mark for "high".
    expect(gas).toMatchObject({ baseline: 0, severity: "medium", annotated_amount: 0 });
    expect(res.body.anomalies.find((a: { category: string }) => a.category === "groceries")).toBeUndefined();
    expect(res.body.anomalies.find((a: { category: string }) => a.category === "coffee")).toBeUndefined();
  });

  it("pace only for the current month, from prior months' curves", async () => {
    const res = await s("2024-03");
    const p = res.body.pace;
    expect(p).toMatchObject({ day_of_month: 10, days_in_month: 31, month_to_date: 690.55 });
    // Feb through day 10: 100 + 40 + 60 = 200 (of 500). Jan through day 10: 0 (of 120).
    expect(p.previous_to_date).toBe(200);
    expect(p.typical_to_date).toBe(100);
    // Only Feb has spending by day 10 → one usable curve → limited: 690.55 / 10 * 31.
    expect(p.forecast_quality).toBe("limited");
    expect(p.projected_month_total).toBe(2140.71);
    expect((await s("2024-02")).body.pace).toBeNull();
  });

  it("a month with nothing is all zeros, not an error", async () => {
    const res = await s("2023-01");
    expect(res.body.current).toMatchObject({
      total_spending: 0,
      spending_count: 0,
      by_category: {},
      top_categories: [],
    });
    expect(res.body.anomalies).toEqual([]);
  });

  it("validates month", async () => {
    expectEnvelope(await s("2024-3"), 422, "VALIDATION_ERROR");
    expectEnvelope(await call("/api/v1/summary"), 422, "VALIDATION_ERROR");
  });

  it("trend", async () => {
    const res = await call("/api/v1/summary/trend?months=3&end_month=2024-03", { now: NOW });
    expect(
      res.body.months.map((m: { year_month: string; total_spending: number }) => [
        m.year_month,
        m.total_spending,
      ]),
    ).toEqual([
      ["2024-01", 120],
      ["2024-02", 500],
      ["2024-03", 700.55],
    ]);
    const dflt = await call("/api/v1/summary/trend", { now: NOW });
    expect(dflt.body.months).toHaveLength(6);
    expect(dflt.body.months.at(-1).year_month).toBe("2024-03");
    expectEnvelope(await call("/api/v1/summary/trend?months=13"), 422, "VALIDATION_ERROR");
  });

  it("the configured time zone decides the current month", async () => {
    await call("/api/v1/config", { method: "PUT", body: { timezone: "Asia/Tokyo" } });
    // 2024-03-31T16:00Z is April 1st in Tokyo.
    const res = await call("/api/v1/summary?month=2024-04", { now: "2024-03-31T16:00:00Z" });
    expect(res.body.pace).toMatchObject({ day_of_month: 1, days_in_month: 30 });
    await env.DB.prepare("DELETE FROM app_config").run();
  });
});

describe("pace with enough history", () => {
  it("uses the median of prior curves (forecast) and P25/P75", async () => {
    await clearTransactions();
    // Three prior months: by day 10 they had spent 25%, 50% and 100% of their totals.
    await seedTx({ DateFileName: "2024.06.05_10.00_a.eml", Amount: 100 });
    await seedTx({ DateFileName: "2024.06.20_10.00_b.eml", Amount: 300 });
    await seedTx({ DateFileName: "2024.07.05_10.00_c.eml", Amount: 200 });
    await seedTx({ DateFileName: "2024.07.25_10.00_d.eml", Amount: 200 });
    await seedTx({ DateFileName: "2024.08.05_10.00_e.eml", Amount: 400 });
    await seedTx({ DateFileName: "2024.09.03_10.00_f.eml", Amount: 100 });
    const res = await call("/api/v1/summary?month=2024-09", { now: "2024-09-10T19:00:00Z" });
    const p = res.body.pace;
    expect(p.forecast_quality).toBe("forecast");
    // Projections: 100/0.25 = 400, 100/0.5 = 200, 100/1 = 100 → median 200, P25 150, P75 300.
    expect(p).toMatchObject({
      projected_month_total: 200,
      projected_lower: 150,
      projected_upper: 300,
      month_to_date: 100,
    });
    const early = await call("/api/v1/summary?month=2024-09", { now: "2024-09-02T19:00:00Z" });
    expect(early.body.pace.forecast_quality).toBe("historical");
    expect(early.body.pace.projected_month_total).toBe(400);
  });
});

describe("month aggregates stay on the month-range index", () => {
  // Every aggregate of the summary, budget, merchants and income reads a DateFileName range: the
  // plan must search idx_transactions_month rather than scan the table.
  it("each query's plan uses idx_transactions_month", async () => {
    const db = getDb(env.DB);
    const b = rangeBounds("2024-01", "2024-12");
    const queries = {
      windowByMonthCategory: summaryQ.windowByMonthCategory(db, b, 10),
      byCompany: summaryQ.byCompany(db, b, true),
      byMonthCategory: summaryQ.byMonthCategory(db, b),
      commentedByCategory: summaryQ.commentedByCategory(db, b),
      monthlyByCategory: budgetQ.monthlyByCategory(db, b, 10),
      totalsByCategory: budgetQ.totalsByCategory(db, b),
      recurringCharges: budgetQ.recurringCharges(db, b, 3),
      chargesByCompany: budgetQ.chargesByCompany(db, b),
    };
    for (const [name, q] of Object.entries(queries)) {
      const { sql, params } = q.toSQL();
      const plan = await env.DB.prepare(`EXPLAIN QUERY PLAN ${sql}`)
        .bind(...params)
        .all<{ detail: string }>();
      expect(plan.results.map((r) => r.detail).join("; "), name).toMatch(/idx_transactions_month/);
    }
  });

  // The summary's window and by-company groups read only columns of idx_transactions_month_cover.
  it("the summary's window and by-company groups read the covering index alone", async () => {
    const db = getDb(env.DB);
    const b = rangeBounds("2024-01", "2024-07");
    for (const q of [summaryQ.windowByMonthCategory(db, b, 10), summaryQ.byCompany(db, b, false)]) {
      const { sql, params } = q.toSQL();
      const plan = await env.DB.prepare(`EXPLAIN QUERY PLAN ${sql}`)
        .bind(...params)
        .all<{ detail: string }>();
      expect(plan.results.map((r) => r.detail).join("; "), sql).toMatch(
        /COVERING INDEX idx_transactions_month_cover/,
      );
    }
  });

  // The hand-written packed statements (income, merchants): the plan named in their comments.
  it("the income statement and the merchant window read the year from the covering index", async () => {
    const db = getDb(env.DB);
    const b = rangeBounds("2024-01", "2024-12");
    const w = { ...b, lastLo: rangeBounds("2024-12", "2024-12").lo, months: ["2024-11", "2024-12"] };
    const statements = {
      income: yearStatement(b.lo, b.hi, 2024, "default"),
      merchants: windowQuery(w),
    };
    for (const [name, statement] of Object.entries(statements)) {
      const plan = await db.all<{ detail: string }>(sql`EXPLAIN QUERY PLAN ${statement}`);
      const details = plan.map((r) => r.detail);
      expect(details.join("; "), name).toMatch(/COVERING INDEX idx_transactions_month_cover/);
      expect(
        details.some((d) => /^SCAN transactions\b/.test(d)),
        name,
      ).toBe(false);
    }
  });
});
