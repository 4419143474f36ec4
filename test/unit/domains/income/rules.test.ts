import { describe, expect, it } from "vitest";
import {
  annualize,
  categoryTypes,
  companyRows,
  expenseSections,
  incomeStatement,
  monthsElapsed,
  savingsRate,
} from "../../../../src/domains/income/rules";
import { statementOut } from "../../../../src/domains/income/response";
import { toCents } from "../../../../src/lib/money";

// The rules take and give integer cents (SQL sums); the amounts below are written in dollars.
const c = toCents;
const M3 = ["2024-01", "2024-02", "2024-03"];
const row = (merchant: string, ym: string, total: number, extra: Record<string, unknown> = {}) => ({
  merchant,
  company: merchant.toUpperCase(),
  ym,
  total: c(total),
  last_seen: `${ym}.01_x`,
  ...extra,
});

describe("income statement rules", () => {
  it("company rows: months filled, latest spelling, blank company shown as Unknown, largest first", () => {
    const rows = companyRows(
      [
        row("acme", "2024.01", 100),
        { ...row("acme", "2024.03", 50.005), company: "Acme Inc", last_seen: "2024.03.09_x" },
        { ...row("", "2024.02", 300), company: null },
      ],
      M3,
    );
    expect(rows).toEqual([
      { company: "Unknown", months: [0, c(300), 0], total: c(300) },
      { company: "Acme Inc", months: [c(100), 0, c(50.01)], total: c(150.01) },
    ]);
  });

  it("expense sections follow the budget's category types; the rest is unbudgeted", () => {
    const sections = expenseSections(
      [
        row("landlord", "2024.01", 1000, { category: "rent" }),
        row("safeway", "2024.01", 80, { category: "groceries" }),
        row("superstore", "2024.02", 20, { category: "groceries" }),
        row("cinema", "2024.03", 15, { category: "entertainment" }),
      ],
      M3,
      { rent: "fixed", groceries: "variable", travel: "lumpy" },
    );
    expect(sections.map((s) => [s.type_name, s.display_name, s.annual_total])).toEqual([
      ["fixed", "Fixed costs", c(1000)],
      ["variable", "Variable spending", c(100)],
      ["unbudgeted", "Unbudgeted", c(15)],
    ]);
    expect(sections[1]!.categories[0]).toEqual({
      category: "groceries",
      months: [c(80), c(20), 0],
      total: c(100),
      companies: [
        { company: "SAFEWAY", months: [c(80), 0, 0], total: c(80) },
        { company: "SUPERSTORE", months: [0, c(20), 0], total: c(20) },
      ],
    });
  });

  it("savings rate is a fraction, null without income", () => {
    expect(savingsRate(1000, 250)).toBe(0.25);
    expect(savingsRate(0, -50)).toBeNull();
    expect(savingsRate(3, 1)).toBe(0.3333);
  });

  it("months elapsed and annualizing", () => {
    expect(monthsElapsed(2023, "2024-03")).toBe(12);
    expect(monthsElapsed(2024, "2024-03")).toBe(3);
    expect(monthsElapsed(2025, "2024-03")).toBe(0);
    expect(annualize([100, 200, 300, 999], 3)).toBe(2400);
    expect(annualize([100], 0)).toBe(0);
    // cents: rounded to the cent (10.00 + 0.01 over 2 months → 60.06)
    expect(annualize([1000, 1], 2)).toBe(6006);
  });

  it("category types are read case-insensitively from a targets document", () => {
    expect(categoryTypes({ categories: { Rent: { category_type: "fixed" }, Gas: {} } })).toEqual({
      rent: "fixed",
    });
    expect(categoryTypes(null)).toEqual({});
    expect(categoryTypes({ categories: "nope" })).toEqual({});
  });

  it("assembles net, rates, projection and the committed floor", () => {
    const out = statementOut(
      incomeStatement({
        year: 2024,
        months: M3,
        income: [row("employer", "2024.01", 3000), row("employer", "2024.02", 3000)],
        expenses: [
          row("landlord", "2024.01", 1000, { category: "rent" }),
          row("landlord", "2024.02", 1000, { category: "rent" }),
          row("safeway", "2024.02", 500, { category: "groceries" }),
        ],
        types: { rent: "fixed" },
        elapsed: 2,
      }),
    );
    expect(out.total_expenses_monthly).toEqual([1000, 1500, 0]);
    expect(out.net_monthly).toEqual([2000, 1500, 0]);
    expect(out.net_annual).toBe(3500);
    expect(out.savings_rate_monthly).toEqual([0.6667, 0.5, null]);
    expect(out.savings_rate_annual).toBe(0.5833);
    expect(out.projection).toEqual({
      annualized_income: 36000,
      annualized_expenses: 15000,
      annualized_net: 21000,
      months_elapsed: 2,
    });
    expect(out.committed_floor).toBe(12000);
  });
});
