import { asCents } from "../../../../src/lib/money";
import { describe, expect, it } from "vitest";
import {
  companyDiffers,
  occurrences,
  reconcile,
  type RowToReconcile,
  statementStatus,
  type StoredTx,
} from "../../../../src/domains/statements/rules";

const row = (
  date: string,
  amount: number,
  type: "withdrawal" | "deposit",
  key = `${date}-${amount}-${type}`,
): RowToReconcile => ({
  date,
  amount: asCents(amount),
  type,
  cleaned: "SHOP",
  suggested: "Miscellaneous",
  syntheticKey: key,
});
const stored = (dfn: string, amount: number, type: string, extra: Partial<StoredTx> = {}): StoredTx => ({
  ForwardedTo: "me@example.com",
  DateFileName: dfn,
  Amount: asCents(amount),
  Company: "Shop",
  Category: "groceries",
  TransactionType: type,
  categorySource: "override",
  ...extra,
});

describe("reconcile", () => {
  it("exact wins over fuzzy for another row, and a stored row is matched once", () => {
    const s = [stored("2025.03.10_1", 1000, "purchase")];
    const out = reconcile([row("2025-03-11", 1000, "withdrawal"), row("2025-03-10", 1000, "withdrawal")], s);
    expect(out.map((o) => o.tier)).toEqual(["new", "matched"]);
  });

  it("amount within one cent matches, two cents does not", () => {
    expect(
      reconcile([row("2025-03-10", 1001, "withdrawal")], [stored("2025.03.10_1", 1000, "preauth")])[0]!.tier,
    ).toBe("matched");
    expect(
      reconcile([row("2025-03-10", 1002, "withdrawal")], [stored("2025.03.10_1", 1000, "preauth")])[0]!.tier,
    ).toBe("new");
  });

  it("opposite directions never match at any tier", () => {
    const s = [stored("2025.03.10_1", 1000, "purchase"), stored("2025.03.11_1", 1000, "withdrawal")];
    expect(reconcile([row("2025-03-10", 1000, "deposit")], s)[0]!.tier).toBe("new");
    expect(
      reconcile([row("2025-03-10", 1000, "withdrawal")], [stored("2025.03.10_1", 1000, "deposit")])[0]!.tier,
    ).toBe("new");
  });

  it("fuzzy takes the nearest day within two, lists every candidate, and not three days", () => {
    const s = [stored("2025.03.08_1", 1000, "purchase"), stored("2025.03.11_1", 1000, "purchase")];
    const [a] = reconcile([row("2025-03-10", 1000, "withdrawal")], s);
    expect(a).toMatchObject({ tier: "ambiguous", reason: "Same amount 1 day apart (2 candidates)" });
    expect(a!.match!.DateFileName).toBe("2025.03.11_1");
    expect(a!.candidates).toHaveLength(2);
    expect(reconcile([row("2025-03-14", 1000, "withdrawal")], s)[0]!.tier).toBe("new");
  });

  it("the synthetic key finds a previous import first; matched rows default to enrich only when it adds something", () => {
    const s = [
      stored("K1", 1000, "withdrawal"),
      stored("2025.03.10_1", 1000, "purchase", { Category: "miscellaneous", categorySource: "fallback" }),
    ];
    const out = reconcile(
      [
        row("2025-03-10", 1000, "withdrawal", "K1"),
        { ...row("2025-03-10", 1000, "withdrawal"), suggested: "Groceries" },
      ],
      s,
    );
    expect(out.map((o) => [o.tier, o.action])).toEqual([
      ["previously_imported", "skip"],
      ["matched", "enrich"],
    ]);
  });

  it("status, occurrences and company comparison", () => {
    expect(statementStatus([{ edited: 0, action_result: null }])).toBe("pending_review");
    expect(statementStatus([{ edited: 1, action_result: null }])).toBe("in_progress");
    expect(statementStatus([{ edited: 0, action_result: "skipped" }])).toBe("complete");
    expect(
      occurrences([
        { date: "d", type: "withdrawal", amount: asCents(1), description: "A" },
        { date: "d", type: "withdrawal", amount: asCents(1), description: "A" },
        { date: "d", type: "withdrawal", amount: asCents(1), description: "B" },
      ]),
    ).toEqual([0, 1, 0]);
    expect(companyDiffers("Maplewood Stationery Inc", "MAPLEWOOD STATIONERY")).toBe(false);
    expect(companyDiffers("Coffee Shop", "GROCERY MARKET")).toBe(true);
  });
});
