import { env } from "cloudflare:test";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bearer, resetState, seedToken } from "../helpers/auth";
import { call, expectEnvelope } from "../helpers/http";
import { clearTransactions, seedTx } from "../helpers/seed";

const NOW = "2024-03-15T12:00:00Z";
const get = (qs: string, headers: Record<string, string> = {}) =>
  call(`/api/v1/income-statement?${qs}`, { now: NOW, headers });
let n = 0;
const tx = (
  dfn: string,
  Company: string | null,
  Amount: number,
  TransactionType: string,
  more: Record<string, unknown> = {},
) => seedTx({ DateFileName: `${dfn}_${++n}.eml`, Company, Amount, TransactionType, ...more });
const zeros = (k: number) => Array.from({ length: k }, () => 0);

describe("income statement", () => {
  beforeAll(async () => {
    await clearTransactions();
    // Income: deposit types only; month boundaries on both sides of January/February.
    await tx("2024.01.31_23.59", "Employer", 3000, "e-transfer", { Category: null });
    await tx("2024.02.01_00.00", "EMPLOYER", 3000, "e-transfer", { Category: null });
    await tx("2024.03.05_10.00", "Mom", 100, "deposit", { Category: null });
    await tx("2024.03.06_10.00", "Lottery", 500, "deposit", { Ignored: 1 });
    await tx("2024.03.07_10.00", "Refund Co", 40, "e-transfer", { DeletedAt: "2024-03-08T00:00:00Z" });
    await tx("2023.12.31_23.59", "Employer", 3000, "e-transfer");
    await tx("2025.01.01_00.00", "Employer", 3000, "e-transfer");
    // Expenses: spending types by category.
    await tx("2024.01.01_00.00", "Landlord", 1000, "withdrawal", { Category: "rent" });
    await tx("2024.02.01_09.00", "Landlord", 1000, "withdrawal", { Category: "rent" });
    await tx("2024.01.10_10.00", "Safeway", 80, "purchase", { Category: "groceries" });
    await tx("2024.02.10_10.00", "Superstore", 20, "preauth", { Category: "Groceries" });
    await tx("2024.02.11_10.00", "Safeway", 999, "purchase", { Category: "groceries", Ignored: 1 });
    await tx("2024.02.12_10.00", "Safeway", 888, "purchase", {
      Category: "groceries",
      DeletedAt: "2024-02-13T00:00:00Z",
    });
    await env.DB.prepare(
      `INSERT INTO budget_config (user_id, year, kind, data, version, updated_at)
       VALUES ('default', 2024, 'targets', ?, 1, '2024-01-01T00:00:00Z')`,
    )
      .bind(
        JSON.stringify({
          spending_ceiling: 0,
          categories: { Rent: { target: 12000, input_mode: "monthly", category_type: "fixed" } },
        }),
      )
      .run();
  });
  afterAll(resetState);

  it("income by company, expenses by category in budget sections, net and savings rate", async () => {
    const res = await get("year=2024");
    expect(res.status).toBe(200);
    const b = res.body;
    expect(b.year).toBe(2024);
    expect(b.months).toHaveLength(12);
    expect(b.months[0]).toBe("2024-01");
    expect(b.income.companies).toEqual([
      { company: "EMPLOYER", months: [3000, 3000, ...zeros(10)], total: 6000 },
      { company: "Mom", months: [0, 0, 100, ...zeros(9)], total: 100 },
    ]);
    expect(b.income.monthly_totals).toEqual([3000, 3000, 100, ...zeros(9)]);
    expect(b.income.annual_total).toBe(6100);
    expect(b.expense_sections.map((s: { type_name: string }) => s.type_name)).toEqual([
      "fixed",
      "unbudgeted",
    ]);
    expect(b.expense_sections[0]).toMatchObject({ display_name: "Fixed costs", annual_total: 2000 });
    expect(b.expense_sections[1].categories).toEqual([
      {
        category: "groceries",
        months: [80, 20, ...zeros(10)],
        total: 100,
        companies: [
          { company: "Safeway", months: [80, ...zeros(11)], total: 80 },
          { company: "Superstore", months: [0, 20, ...zeros(10)], total: 20 },
        ],
      },
    ]);
    expect(b.total_expenses_monthly).toEqual([1080, 1020, ...zeros(10)]);
    expect(b.total_expenses_annual).toBe(2100);
    expect(b.net_monthly).toEqual([1920, 1980, 100, ...zeros(9)]);
    expect(b.net_annual).toBe(4000);
    expect(b.savings_rate_monthly).toEqual([0.64, 0.66, 1, ...Array(9).fill(null)]);
    expect(b.savings_rate_annual).toBe(0.6557);
  });

  it("projects the months begun so far and annualizes the fixed section as the committed floor", async () => {
    const { body } = await get("year=2024");
    // March 15: three months begun. Income 6100, expenses 2100, fixed 2000 → × 12 / 3.
    expect(body.projection).toEqual({
      annualized_income: 24400,
      annualized_expenses: 8400,
      annualized_net: 16000,
      months_elapsed: 3,
    });
    expect(body.committed_floor).toBe(8000);
  });

  it("a year without rows is all zeros; past and future years project 12 and 0 months", async () => {
    const past = (await get("year=2023")).body;
    expect(past.income.annual_total).toBe(3000);
    expect(past.expense_sections).toEqual([]);
    expect(past.projection.months_elapsed).toBe(12);
    expect(past.savings_rate_annual).toBe(1);
    const future = (await get("year=2026")).body;
    expect(future.projection).toEqual({
      annualized_income: 0,
      annualized_expenses: 0,
      annualized_net: 0,
      months_elapsed: 0,
    });
    expect(future.savings_rate_annual).toBeNull();
    expect(future.net_monthly).toEqual(zeros(12));
  });

  it("rejects a missing or out-of-range year with the 422 envelope", async () => {
    for (const qs of ["", "year=2019", "year=2100", "year=abc", "year=2024.5"]) {
      expectEnvelope(await get(qs), 422, "VALIDATION_ERROR");
    }
  });

  it("a read token may GET it", async () => {
    const { token } = await seedToken("read");
    expect((await get("year=2024", bearer(token))).status).toBe(200);
  });
});
