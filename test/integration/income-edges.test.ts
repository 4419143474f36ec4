// Income statement edges of its one-statement aggregate: refunds, blank names and categories,
// the latest spelling whatever the insertion order, ties, and the year's edge in the local zone.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resetState } from "../helpers/auth";
import { call } from "../helpers/http";
import { clearTransactions, seedTx } from "../helpers/seed";

const NOW = "2024-03-15T20:00:00Z";
const get = (qs: string, now = NOW) => call(`/api/v1/income-statement?${qs}`, { now });
let n = 0;
const tx = (
  dfn: string,
  Company: string | null,
  Amount: number,
  Category: string | null,
  more: Record<string, unknown> = {},
) => seedTx({ DateFileName: `${dfn}_${++n}.eml`, Company, Amount, Category, ...more });
const months = (...xs: number[]) => [...xs, ...Array(12 - xs.length).fill(0)];
const category = (body: any, name: string) =>
  body.expense_sections.flatMap((s: any) => s.categories).find((c: any) => c.category === name);

describe("income statement edges", () => {
  beforeAll(async () => {
    await clearTransactions();
    // Refunds are negative amounts: they net within the company's month, income or expense.
    await tx("2024.01.10_10.00", "Shop A", 100, "groceries");
    await tx("2024.02.10_10.00", "Shop A", -30, "groceries");
    await tx("2024.02.11_10.00", "Shop A", 12.5, "groceries", { TransactionType: "withdrawal" });
    await tx("2024.01.15_10.00", "Payer", 500, null, { TransactionType: "deposit" });
    await tx("2024.02.15_10.00", "Payer", -50, null, { TransactionType: "e-transfer" });
    // No category, a blank one and a padded one: uncategorized, uncategorized, travel.
    await tx("2024.01.20_10.00", "Cab", 7, null);
    await tx("2024.02.20_10.00", "Cab", 3, "   ");
    await tx("2024.01.21_10.00", "Air", 200, " Travel ");
    await tx("2024.02.21_10.00", "Air", 100, "TRAVEL");
    // No company and a blank one are one company, shown as Unknown.
    await tx("2024.01.22_10.00", null, 4, "misc");
    await tx("2024.02.22_10.00", "   ", 6, "misc");
    // The latest spelling wins even when the later row was written first.
    await tx("2024.02.25_10.00", "ACME ", 20, "office");
    await tx("2024.01.05_10.00", "acme", 10, "office");
    // Equal totals: companies by name, categories by name.
    await tx("2024.01.30_10.00", "Zeta", 25, "b-ties");
    await tx("2024.01.30_11.00", "Alpha", 25, "b-ties");
    await tx("2024.01.30_12.00", "Solo", 50, "a-ties");
    // Excluded: ignored, deleted, and types that are neither spending nor income.
    await tx("2024.01.31_10.00", "Shop A", 999, "groceries", { Ignored: 1 });
    await tx("2024.01.31_11.00", "Shop A", 888, "groceries", { DeletedAt: "2024-02-01T00:00:00Z" });
    await tx("2024.01.31_12.00", "Bank", 5, "fees", { TransactionType: "fee" });
  });
  afterAll(resetState);

  it("refunds net within a company's month, for expenses and income", async () => {
    const { body } = await get("year=2024");
    expect(category(body, "groceries").companies).toEqual([
      { company: "Shop A", months: months(100, -17.5), total: 82.5 },
    ]);
    expect(body.income.companies).toEqual([{ company: "Payer", months: months(500, -50), total: 450 }]);
    expect(body.income.annual_total).toBe(450);
  });

  it("a missing or blank category is uncategorized; categories are trimmed and lowercased", async () => {
    const { body } = await get("year=2024");
    expect(category(body, "uncategorized")).toMatchObject({ months: months(7, 3), total: 10 });
    expect(category(body, "travel")).toMatchObject({ months: months(200, 100), total: 300 });
    const names = body.expense_sections.flatMap((s: any) => s.categories.map((c: any) => c.category));
    expect(names).not.toContain("fees");
    expect(names.filter((c: string) => c.trim() !== c || c.toLowerCase() !== c)).toEqual([]);
  });

  it("no company and a blank one are one Unknown row; the latest spelling names a company", async () => {
    const { body } = await get("year=2024");
    expect(category(body, "misc").companies).toEqual([
      { company: "Unknown", months: months(4, 6), total: 10 },
    ]);
    expect(category(body, "office").companies).toEqual([
      { company: "ACME", months: months(10, 20), total: 30 },
    ]);
  });

  it("equal totals keep a stable order: companies and categories by name", async () => {
    const { body } = await get("year=2024");
    expect(category(body, "b-ties").companies.map((c: any) => c.company)).toEqual(["Alpha", "Zeta"]);
    const unbudgeted = body.expense_sections.find((s: any) => s.type_name === "unbudgeted");
    const ties = unbudgeted.categories.filter((c: any) => c.total === 50).map((c: any) => c.category);
    expect(ties).toEqual(["a-ties", "b-ties"]);
  });

  it("the year begins in the configured zone: 05:00 UTC on January 1 is still December 31 in LA", async () => {
    const newYear = "2024-01-01T05:00:00Z";
    expect((await get("year=2024", newYear)).body.projection.months_elapsed).toBe(0);
    expect((await get("year=2023", newYear)).body.projection.months_elapsed).toBe(12);
    expect((await get("year=2024", "2024-01-01T08:30:00Z")).body.projection.months_elapsed).toBe(1);
  });
});
