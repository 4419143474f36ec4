import { env } from "cloudflare:test";
import { beforeEach, describe, expect, it } from "vitest";
import { call, expectEnvelope } from "../helpers/http";
import { clearTransactions, type SeedTx, seedTx } from "../helpers/seed";

// 2024-03-15 13:00 in Los Angeles (the default zone). 2024 is a leap year: day 75 of 366.
const NOW = "2024-03-15T20:00:00Z";
const status = (query = "year=2024", now = NOW) => call(`/api/v1/budget/status?${query}`, { now });

let n = 0;
const row = (DateFileName: string, Category: string, Amount: number, extra: Partial<SeedTx> = {}) =>
  seedTx({ DateFileName: `${DateFileName}_${++n}.eml`, Category, Amount, Company: `Shop ${n}`, ...extra });

async function configure(
  categories: Record<string, [number, string]>,
  groups: unknown[] = [],
  ceiling = 12000,
) {
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
      groups,
      targets_version: null,
      groups_version: null,
    },
  });
  if (res.status !== 200) throw new Error(res.text);
}

const cat = (body: any, name: string) =>
  body.groups.flatMap((g: any) => g.categories).find((c: any) => c.category === name);

beforeEach(async () => {
  await clearTransactions();
  await env.DB.prepare("DELETE FROM budget_config").run();
});

describe("budget status: pace as of an injected clock", () => {
  beforeEach(async () => {
    await configure({ groceries: [6000, "variable"], rent: [12000, "fixed"], travel: [2400, "lumpy"] }, [
      { name: "Essentials", categories: ["groceries", "rent"] },
    ]);
    for (const m of ["01", "02", "03"])
      await row(`2024.${m}.05_09.00`, "rent", 1000, { TransactionType: "preauth" });
    await row("2024.01.12_10.00", "groceries", 400);
    await row("2024.01.25_10.00", "groceries", 200);
    await row("2024.02.12_10.00", "groceries", 300);
    await row("2024.03.03_10.00", "groceries", 100);
    await row("2024.03.10_10.00", "groceries", 150, { TransactionType: "withdrawal" });
    await row("2024.03.14_10.00", "GROCERIES", 50);
    // Excluded: deposits, e-transfers, ignored and deleted rows.
    await row("2024.03.11_10.00", "groceries", 999, { TransactionType: "e-transfer" });
    await row("2024.03.11_11.00", "groceries", 888, { TransactionType: "deposit" });
    await row("2024.03.12_10.00", "groceries", 777, { Ignored: 1 });
    await row("2024.03.13_10.00", "groceries", 666, { DeletedAt: "2024-03-13T00:00:00Z" });
    // Unbudgeted, and the prior year.
    await row("2024.02.20_10.00", "coffee & cafes", 20);
    await row("2024.03.08_10.00", "Coffee & Cafes", 30);
    await row("2023.06.01_10.00", "groceries", 250);
    await row("2023.07.01_10.00", "rent", 1000);
  });

  it("year-to-date and current-month pace per category", async () => {
    const res = await status();
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ year: 2024, as_of: "2024-03-15", elapsed_year_fraction: 0.2049 });
    expect(cat(res.body, "groceries")).toMatchObject({
      target: 6000,
      monthly_amount: 500,
      category_type: "variable",
      ytd_spent: 1200,
      ytd_expected: 1229.51,
      variance: -29.51,
      pace_percent: 97.6,
      status: "on_track",
      current_month_spent: 300,
      current_month_expected: 241.94,
      monthly_spent: [600, 300, 300, 0, 0, 0, 0, 0, 0, 0, 0, 0],
      prior_year_total: 250,
    });
    expect(cat(res.body, "rent")).toMatchObject({
      ytd_spent: 3000,
      ytd_expected: 2459.02,
      variance: 540.98,
      pace_percent: 122,
      status: "over",
      current_month_spent: 1000,
      current_month_expected: 483.87,
      prior_year_total: 1000,
    });
    expect(cat(res.body, "travel")).toMatchObject({
      ytd_spent: 0,
      ytd_expected: 491.8,
      status: "under",
      prior_year_total: 0,
    });
  });

  it("groups, overall, unbudgeted and yearly totals", async () => {
    const { body } = await status();
    expect(body.groups.map((g: any) => [g.name, g.categories.map((c: any) => c.category)])).toEqual([
      ["Essentials", ["groceries", "rent"]],
      ["Ungrouped", ["travel"]],
    ]);
    expect(body.groups[0]).toMatchObject({
      budgeted_total: 18000,
      ytd_spent: 4200,
      expected_pace: 3688.52,
      variance: 511.48,
      status: "over",
      monthly_totals: [1600, 1300, 1300, 0, 0, 0, 0, 0, 0, 0, 0, 0],
      prior_year_total: 1250,
    });
    expect(body.overall).toEqual({
      spending_ceiling: 12000,
      ytd_spent: 4250,
      expected_pace: 2459.02,
      variance: 1790.98,
      status: "over",
      headline: "Over pace: $4,250.00 spent vs $2,459.02 expected of a $12,000.00 ceiling",
      // rent 1000 (historical) + groceries 400 (forecast); travel is lumpy
      projected_month_total: 1400,
      projected_month_status: "on_track",
    });
    // history months with data: 2024-01 and 2024-02 → coffee (0 + 20) / 2
    expect(body.unbudgeted).toEqual([
      { category: "coffee & cafes", ytd_spent: 50, monthly_avg_historical: 10, current_month_spent: 30 },
    ]);
    expect(body.monthly_totals).toEqual([1600, 1320, 1330, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
    expect(body).toMatchObject({ prior_year_total: 1250, compare_year: 2023 });
  });

  it("forecast branches: curve-based, historical (few transactions), lumpy none", async () => {
    const { body } = await status();
    // groceries: what Jan and Feb still spent after day 15 = 200 and 0 → P25 50, P50 100, P75 150
    expect(cat(body, "groceries")).toMatchObject({
      forecast_month_total: 400,
      forecast_lower: 350,
      forecast_upper: 450,
      forecast_pct: 80,
      forecast_quality: "forecast",
    });
    // rent: one transaction this month → typical month (mean 1000)
    expect(cat(body, "rent")).toMatchObject({
      forecast_month_total: 1000,
      forecast_lower: 1000,
      forecast_upper: 1000,
      forecast_pct: 100,
      forecast_quality: "historical",
    });
    expect(cat(body, "travel")).toMatchObject({
      forecast_month_total: null,
      forecast_quality: null,
      forecast_pct: null,
    });
  });

  it("early in the month the forecast is the typical month", async () => {
    const { body } = await status("year=2024", "2024-03-04T20:00:00Z");
    // Day 4 ≤ 7: max(spent 300, mean of Jan 600 / Feb 300 = 450); bounds P25 375 / P75 525.
    expect(cat(body, "groceries")).toMatchObject({
      forecast_quality: "historical",
      forecast_month_total: 450,
      forecast_lower: 375,
      forecast_upper: 525,
    });
    expect(body).toMatchObject({ as_of: "2024-03-04", elapsed_year_fraction: 0.1749 });
  });

  it("the local date comes from the configured zone: 05:00 UTC on the 16th is still the 15th in LA", async () => {
    const { body } = await status("year=2024", "2024-03-16T05:00:00Z");
    expect(body.as_of).toBe("2024-03-15");
  });

  it("a past year: fraction 1, no current month, no forecast; compare_year without data is null", async () => {
    const { body } = await status("year=2023");
    expect(body).toMatchObject({
      year: 2023,
      elapsed_year_fraction: 1,
      prior_year_total: null,
      compare_year: null,
    });
    expect(body.monthly_totals[5]).toBe(250);
    expect(body.overall).toMatchObject({
      spending_ceiling: 0,
      ytd_spent: 1250,
      status: "on_track",
      projected_month_total: null,
    });
    expect(body.overall.headline).toBe("No spending ceiling set for 2023; $1,250.00 spent so far");
    expect(body.unbudgeted.map((u: any) => u.category)).toEqual(["rent", "groceries"]);
    const explicit = await status("year=2024&compare_year=2023");
    expect(explicit.body.compare_year).toBe(2023);
  });

  it("validation", async () => {
    for (const q of ["", "year=2019", "year=2100", "year=abc", "year=2024&compare_year=1999"]) {
      expectEnvelope(await status(q), 422, "VALIDATION_ERROR");
    }
  });
});

describe("budget status: month boundaries", () => {
  it("a row at 2024.03.31_23.59 belongs to March; 2024.04.01_00.00 to April; 2023.12.31_23.59 to the prior year", async () => {
    await configure({ groceries: [1200, "variable"] });
    await row("2023.12.31_23.59", "groceries", 1000);
    await row("2024.01.01_00.00", "groceries", 3);
    await row("2024.02.29_23.59", "groceries", 11);
    await row("2024.03.31_23.59", "groceries", 100);
    await row("2024.04.01_00.00", "groceries", 7);
    const { body } = await status("year=2024", "2024-04-10T19:00:00Z");
    expect(cat(body, "groceries")).toMatchObject({
      monthly_spent: [3, 11, 100, 7, 0, 0, 0, 0, 0, 0, 0, 0],
      ytd_spent: 121,
      current_month_spent: 7,
      prior_year_total: 1000,
    });
  });
});

describe("budget status: limited and committed forecasts", () => {
  it("limited: under 2 months of history → linear extrapolation", async () => {
    await configure({ fun: [1200, "variable"] });
    await row("2024.02.10_10.00", "fun", 80);
    await row("2024.03.02_10.00", "fun", 20);
    await row("2024.03.09_10.00", "fun", 40);
    const { body } = await status();
    // 60 spent by day 15 of 31 → 124; budget 100/month
    expect(cat(body, "fun")).toMatchObject({
      forecast_month_total: 124,
      forecast_lower: null,
      forecast_upper: null,
      forecast_pct: 124,
      forecast_quality: "limited",
    });
  });

  it("committed: recurring charges (same company and amount in >= 3 prior months) dominate", async () => {
    await configure({ subscriptions: [360, "fixed"] });
    for (const m of ["2023.12", "2024.01", "2024.02"]) {
      await row(`${m}.03_08.00`, "subscriptions", 15.99, { Company: "Netflix" });
      await row(`${m}.20_08.00`, "subscriptions", 9.99, { Company: "Spotify" });
    }
    await row("2024.01.09_08.00", "subscriptions", 4, { Company: "App Store" });
    await row("2024.03.03_08.00", "subscriptions", 15.99, { Company: "NETFLIX" });
    const { body } = await status();
    // mean (25.98 + 29.98 + 25.98) / 3 = 27.3133; recurring 25.98 (>= 70%)
    // 15.99 spent + Spotify 9.99 still due + (27.3133 - 25.98) x 16/31 everyday = 26.67
    expect(cat(body, "subscriptions")).toMatchObject({
      forecast_month_total: 26.67,
      forecast_lower: null,
      forecast_upper: null,
      forecast_pct: 88.9,
      forecast_quality: "committed",
    });
  });
});

describe("budget status: a past year reads no forecast inputs", () => {
  it("its history is its own last 6 months; recurring charges make no forecast", async () => {
    await row("2023.03.10_10.00", "groceries", 1000);
    await row("2023.07.10_10.00", "groceries", 60);
    await row("2023.09.10_10.00", "groceries", 30);
    for (const m of ["2023.08", "2023.09", "2023.10"])
      await row(`${m}.03_08.00`, "subscriptions", 15.99, { Company: "Netflix" });
    const { body } = await status("year=2023");
    expect(body.overall.projected_month_total).toBeNull();
    // History months 2023-07..10 hold spending: groceries 90 / 4, subscriptions 47.97 / 4.
    expect(body.unbudgeted).toEqual([
      { category: "groceries", ytd_spent: 1090, monthly_avg_historical: 22.5, current_month_spent: 0 },
      { category: "subscriptions", ytd_spent: 47.97, monthly_avg_historical: 11.99, current_month_spent: 0 },
    ]);
  });
});
