import { beforeEach, describe, expect, it } from "vitest";
import { clearAveragesCache } from "../../src/domains/budget/averages";
import { call, expectEnvelope } from "../helpers/http";
import { clearTransactions, type SeedTx, seedTx } from "../helpers/seed";

// 2024-04-10 12:00 in Los Angeles: the window of 3 months is January..March 2024.
const NOW = "2024-04-10T19:00:00Z";
const at = (minutes: number) => new Date(Date.parse(NOW) + minutes * 60_000).toISOString();
const averages = (months = 3, now = NOW) =>
  call(`/api/v1/budget/historical-averages?months=${months}`, { now });

let n = 0;
const row = (d: string, Category: string, Amount: number, extra: Partial<SeedTx> = {}) =>
  seedTx({ DateFileName: `${d}_10.00_${++n}.eml`, Category, Amount, ...extra });

beforeEach(async () => {
  clearAveragesCache();
  await clearTransactions();
  for (const m of ["01", "02", "03"]) await row(`2024.${m}.01`, "rent", 1000, { TransactionType: "preauth" });
  await row("2024.01.15", "groceries", 300);
  await row("2024.02.15", "Groceries", 500);
  await row("2024.03.15", "groceries", 400);
  await row("2024.02.20", "travel", 900);
  // Outside the window or not spending.
  await row("2023.12.31", "groceries", 5000);
  await row("2024.04.02", "groceries", 5000);
  await row("2024.03.20", "groceries", 5000, { TransactionType: "e-transfer" });
  await row("2024.03.21", "groceries", 5000, { Ignored: 1 });
  await row("2024.03.22", "groceries", 5000, { DeletedAt: "2024-03-23T00:00:00Z" });
});

describe("historical averages", () => {
  it("averages the complete months before the current one and suggests a type", async () => {
    const res = await averages();
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      months_analyzed: 3,
      period: { start: "2024-01", end: "2024-03" },
      categories: {
        groceries: {
          monthly_avg: 400,
          total: 1200,
          months_active: 3,
          suggested_type: "variable",
          suggested_monthly: 400,
          suggested_annual: 4800,
        },
        rent: {
          monthly_avg: 1000,
          total: 3000,
          months_active: 3,
          suggested_type: "fixed",
          suggested_monthly: 1000,
          suggested_annual: 12000,
        },
        travel: {
          monthly_avg: 300,
          total: 900,
          months_active: 1,
          suggested_type: "lumpy",
          suggested_monthly: 300,
          suggested_annual: 3600,
        },
      },
    });
  });

  it("divides by the months that hold data and defaults to 6 months", async () => {
    const res = await call("/api/v1/budget/historical-averages", { now: NOW });
    // Oct 2023..Mar 2024: data in Dec, Jan, Feb, Mar
    expect(res.body).toMatchObject({ months_analyzed: 4, period: { start: "2023-10", end: "2024-03" } });
    expect(res.body.categories.groceries).toMatchObject({ total: 6200, monthly_avg: 1550, months_active: 4 });
  });

  it("is cached for one hour by the injected clock", async () => {
    expect((await averages()).body.categories.groceries.total).toBe(1200);
    await row("2024.02.16", "groceries", 300);
    expect((await averages(3, at(59))).body.categories.groceries.total).toBe(1200);
    // another window is another key, computed fresh: Feb 500 + 300, Mar 400
    expect((await averages(2, at(59))).body.categories.groceries).toMatchObject({
      total: 1200,
      monthly_avg: 600,
    });
    const fresh = await averages(3, at(61));
    expect(fresh.body.categories.groceries).toMatchObject({ total: 1500, monthly_avg: 500 });
  });

  it("validation: months between 2 and 12", async () => {
    for (const m of [1, 13]) expectEnvelope(await averages(m), 422, "VALIDATION_ERROR");
    expectEnvelope(
      await call("/api/v1/budget/historical-averages?months=x", { now: NOW }),
      422,
      "VALIDATION_ERROR",
    );
  });
});
