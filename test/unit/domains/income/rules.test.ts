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
import { toCents, asCents } from "../../../../src/lib/money";

// The rules take and give integer cents (the rows' amounts); the amounts below are written in dollars.
const c = toCents;
const M3 = ["2024-01", "2024-02", "2024-03"];
/** One company's group: [month 'MM', dollars] per row. */
const group = (merchant: string, rows: [string, number][], extra: Record<string, unknown> = {}) => ({
  merchant,
  company: merchant.toUpperCase(),
  cells: rows.flatMap(([mm, d]) => [mm, c(d)]),
  ...extra,
});

describe("income statement rules", () => {
  it("company rows: months summed (refunds net), blank company shown as Unknown, largest first", () => {
    const rows = companyRows(
      [
        group("acme", [
          ["01", 100],
          ["03", 50.005],
          ["01", -20],
        ]),
        { ...group("", [["02", 300]]), company: null },
        { ...group("blank", [["02", 5]]), company: "   " },
      ],
      M3,
    );
    expect(rows).toEqual([
      { company: "Unknown", months: [0, c(300), 0], total: c(300) },
      { company: "ACME", months: [c(80), 0, c(50.01)], total: c(130.01) },
      { company: "Unknown", months: [0, c(5), 0], total: c(5) },
    ]);
  });

  it("company rows: a month outside the year's twelve is skipped; equal totals keep the key order", () => {
    const rows = companyRows(
      [
        group("zed", [["02", 10]]),
        group("abe", [
          ["02", 10],
          ["1/", 99],
          ["00", 99],
        ]),
        group("mid", [["03", 10]]),
      ],
      M3,
    );
    expect(rows.map((r) => [r.company, r.total])).toEqual([
      ["ABE", c(10)],
      ["MID", c(10)],
      ["ZED", c(10)],
    ]);
  });

  it("expense sections follow the budget's category types; the rest is unbudgeted", () => {
    const sections = expenseSections(
      [
        group("landlord", [["01", 1000]], { category: "rent" }),
        group("safeway", [["01", 80]], { category: "groceries" }),
        group("superstore", [["02", 20]], { category: "groceries" }),
        group("cinema", [["03", 15]], { category: "entertainment" }),
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
    expect(annualize([asCents(100), asCents(200), asCents(300), asCents(999)], 3)).toBe(2400);
    expect(annualize([asCents(100)], 0)).toBe(0);
    // cents: rounded to the cent (10.00 + 0.01 over 2 months → 60.06)
    expect(annualize([asCents(1000), asCents(1)], 2)).toBe(6006);
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
        income: [
          group("employer", [
            ["01", 3000],
            ["02", 3000],
          ]),
        ],
        expenses: [
          group(
            "landlord",
            [
              ["01", 1000],
              ["02", 1000],
            ],
            { category: "rent" },
          ),
          group("safeway", [["02", 500]], { category: "groceries" }),
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
