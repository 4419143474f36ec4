import { describe, expect, it } from "vitest";
import type { TransactionDetail } from "../../../dashboard/src/api/types";
import { txFacts } from "../../../dashboard/src/components/txFacts";

// A row that arrived as Groceries (month total $1,850.00 against the $125.00 Coffee target it
// carried, say) and was then moved to another category.
const detail = (category: string): TransactionDetail =>
  ({
    forwarded_to: "me@example.com",
    transaction: {
      date: "10/05/2026 09:00 PDT",
      transaction_type: "purchase",
      institution: "CIBC",
      name: null,
      comment: null,
      ignored: false,
      deleted_at: null,
      needs_attention: false,
      category,
      statement_source: null,
      context: {
        category_month_total: 1850,
        merchant_month_count: 3,
        category_budget_target: 125,
        category_budget_pct: 1480,
      },
    },
  }) as unknown as TransactionDetail;

const budgetLine = (rows: [string, string][]) => rows.find(([k]) => k === "Category budget")?.[1] ?? null;

describe("the drawer's budget line", () => {
  it("after a category change: the new category's spending against the new category's target", () => {
    // Before: "$125.00 (1480% used)": the stored (old category's) target against the new total.
    expect(budgetLine(txFacts(detail("groceries"), 1850, 450))).toBe("$450.00 (411% used)");
  });

  it("a new category with no target shows no budget line, and none while its target is unknown", () => {
    expect(budgetLine(txFacts(detail("gifts"), 40, null))).toBeNull();
    expect(budgetLine(txFacts(detail("gifts"), 40, undefined))).toBeNull();
    expect(txFacts(detail("gifts"), 40, null)).toContainEqual(["This category, this month", "$40.00"]);
  });

  it("without live figures: the snapshot stored with the row, as it arrived", () => {
    expect(budgetLine(txFacts(detail("coffee")))).toBe("$125.00 (1480% used)");
  });
});
