// GET /api/v1/insights/context (SPEC.md Insights: "the gathered context snapshot"; shapes from the
// reference's InsightsContextResponse): `pace` is the reference's PaceBlock (budget-pace math with
// lumpy categories never annualized), `suspected_ignored` names this month's merchants the person
// usually ignores, and `same_month_last_year.comments` carries last year's notes (issue 23 point 5).
import { env } from "cloudflare:test";
import { beforeEach, describe, expect, it } from "vitest";
import { countingD1 } from "../../bench/lib/d1-count";
import { clearAveragesCache } from "../../src/domains/budget/averages";
import { call } from "../helpers/http";
import { clearTransactions, seedTx } from "../helpers/seed";

const NOW = "2024-05-16T19:00:00Z"; // May 16 in Los Angeles: the current month is 2024-05
let n = 0;
const row = (day: string, Category: string, Amount: number, more: Record<string, unknown> = {}) =>
  seedTx({ DateFileName: `${day}_10.00_r${++n}.eml`, Category, Amount, Company: `Shop ${n}`, ...more });
const context = (month: string) => call(`/api/v1/insights/context?month=${month}`, { now: NOW });

async function budget(ceiling: number, categories: Record<string, [number, string]>) {
  const res = await call("/api/v1/budget/config?year=2024", {
    method: "PUT",
    now: NOW,
    body: {
      spending_ceiling: ceiling,
      categories: Object.fromEntries(
        Object.entries(categories).map(([k, [target, type]]) => [
          k,
          { target, input_mode: "yearly", category_type: type },
        ]),
      ),
      groups: [],
      targets_version: null,
      groups_version: null,
    },
  });
  expect(res.status, res.text).toBe(200);
}

beforeEach(async () => {
  await clearTransactions();
  await env.DB.prepare("DELETE FROM budget_config").run();
});

describe("its merchant cache", () => {
  it("cold and warm give the same answer; the cache is written once, after the cold read", async () => {
    await row("2024.04.02", "groceries", 50);
    await row("2024.05.02", "groceries", 70);
    clearAveragesCache();
    await env.DB.prepare("DELETE FROM kv_state WHERE key LIKE 'merchant_intelligence:%'").run();
    const writes: number[] = [];
    const bodies: unknown[] = [];
    for (let i = 0; i < 2; i++) {
      const counter = countingD1(env.DB);
      const res = await call("/api/v1/insights/context?month=2024-05", { now: NOW, env: { DB: counter.db } });
      expect(res.status).toBe(200);
      bodies.push({ ...res.body, generated_at: null });
      // The merchant cache write begins after the response (merchants.test.ts shows the response
      // never waits for it); call() does not mark the response's end, so it is set apart here.
      const write = counter.trips.filter((t) => /^insert into "kv_state"/i.test(t.sql[0] ?? ""));
      writes.push(write.length);
    }
    expect(bodies[1]).toEqual(bodies[0]);
    expect(writes).toEqual([1, 0]);
  });
});

describe("SPEC insights context: pace has the reference's PaceBlock shape", () => {
  it("is null without budget targets", async () => {
    await row("2024.05.02", "groceries", 50);
    const res = await context("2024-05");
    expect(res.status).toBe(200);
    expect(res.body.pace).toBeNull();
  });

  it("ceiling, variable and lumpy categories, unbudgeted, month progress (current month)", async () => {
    await budget(12000, { groceries: [2400, "variable"], travel: [1200, "lumpy"] });
    await row("2024.01.10", "groceries", 200);
    await row("2024.03.10", "groceries", 200);
    await row("2024.05.02", "groceries", 100);
    await row("2024.02.20", "travel", 900);
    await row("2024.05.03", "hobbies", 40);
    const { body } = await context("2024-05");
    const pace = body.pace;
    expect(pace.months_elapsed).toBe(5);
    // Jan..May 16: 4 months + 16/31 of May = 0.3763 of the year.
    const fraction = (4 + 16 / 31) / 12;
    expect(pace.ceiling).toMatchObject({ annual: 12000, ytd_spent: 1440 });
    expect(pace.ceiling.prorated_to_date).toBeCloseTo(12000 * fraction, 1);
    expect(pace.ceiling.variance_amount).toBeCloseTo(1440 - 12000 * fraction, 1);
    expect(pace.ceiling.projected_naive).toBeCloseTo(1440 / fraction, 0);
    // Lumpy travel counts at its annual amount (1200), not 900 annualized.
    expect(pace.ceiling.projected_adjusted).toBeCloseTo(540 / fraction + 1200, 0);
    expect(pace.ceiling.method_note).toMatch(/lumpy/);
    const groceries = pace.categories.find((c: { category: string }) => c.category === "groceries");
    expect(groceries).toMatchObject({
      category_type: "variable",
      annual_target: 2400,
      monthly_target: 200,
      month_actual: 100,
      ytd_actual: 500,
      pct_of_annual: null,
      remaining_expected: null,
    });
    expect(groceries.expected_to_date).toBeCloseTo(2400 * fraction, 1);
    expect(groceries.assessment).toBe("under"); // 500 < 0.9 × 903
    const travel = pace.categories.find((c: { category: string }) => c.category === "travel");
    expect(travel).toMatchObject({
      category_type: "lumpy",
      ytd_actual: 900,
      pct_of_annual: 75,
      remaining_expected: 300,
      expected_to_date: null,
      variance_amount: null,
      assessment: "within_annual",
    });
    expect(pace.unbudgeted).toEqual([{ category: "hobbies", ytd_actual: 40, month_actual: 40 }]);
    expect(pace.month_progress).toEqual({
      days_elapsed: 16,
      days_in_month: 31,
      projected_month_end: Math.round((140 / 16) * 31 * 100) / 100,
    });
  });

  it("a finished month counts whole months and has no month progress", async () => {
    await budget(12000, { groceries: [2400, "variable"] });
    await row("2024.03.10", "groceries", 600);
    const { body } = await context("2024-03");
    expect(body.pace.months_elapsed).toBe(3);
    expect(body.pace.ceiling.prorated_to_date).toBe(3000);
    expect(body.pace.categories[0]).toMatchObject({ expected_to_date: 600, variance_amount: 0 });
    expect(body.pace.categories[0].assessment).toBe("on_track");
    expect(body.pace.month_progress).toBeNull();
  });
});

describe("SPEC insights context: suspected_ignored and last year's comments are filled", () => {
  it("a merchant mostly ignored before, charging again this month, is suspected", async () => {
    for (const day of ["2024.02.05", "2024.03.05", "2024.04.05"])
      await row(day, "shopping", 15, { Company: "PAYPAL *GAMESHOP 2231", Ignored: 1 });
    await row("2024.01.05", "shopping", 15, { Company: "PAYPAL *GAMESHOP 2231" });
    await row("2024.05.05", "shopping", 15, { Company: "PAYPAL *GAMESHOP 9911" });
    await row("2024.05.06", "shopping", 4.5, { Company: "PAYPAL *GAMESHOP 9911" });
    // A merchant ignored once among many is a habit of buying, not of ignoring.
    await row("2024.02.07", "groceries", 30, { Company: "FRESH MART", Ignored: 1 });
    for (const day of ["2024.03.07", "2024.04.07", "2024.05.07"])
      await row(day, "groceries", 30, { Company: "FRESH MART" });
    const { body } = await context("2024-05");
    expect(body.suspected_ignored).toEqual([
      { company: "PAYPAL *GAMESHOP 9911", amount: 19.5, count: 2, historical_ignored_share: 0.75 },
    ]);
  });

  it("same_month_last_year.comments holds last May's notes on spending", async () => {
    await row("2023.05.20", "gifts", 80, { Company: "FLOWER SHOP", Comment: "Mum's birthday" });
    await row("2023.05.21", "groceries", 20, { Company: "FRESH MART" });
    await row("2023.05.22", "gifts", 5, { Company: "CARD SHOP", Comment: "ignored one", Ignored: 1 });
    await row("2024.05.02", "groceries", 20, { Company: "FRESH MART" });
    const { body } = await context("2024-05");
    expect(body.same_month_last_year).toMatchObject({ year_month: "2023-05", spending_count: 2 });
    expect(body.same_month_last_year.comments).toEqual([
      {
        date: "2023-05-20",
        company: "FLOWER SHOP",
        amount: 80,
        category: "gifts",
        comment: "Mum's birthday",
      },
    ]);
  });
});
