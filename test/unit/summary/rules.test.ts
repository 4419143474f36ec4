import { describe, expect, it } from "vitest";
import { groupDays, monthlyCeiling } from "../../../src/domains/journal/rules";
import { anomalies, categoryDeltas, monthSummary, pace } from "../../../src/domains/summary/rules";
import {
  canonicalCategory,
  correctedAudit,
  editableImage,
  imageColumns,
} from "../../../src/domains/transactions/rules";
import { compile, csvCell } from "../../../src/domains/transactions/search-rules";
import { decodeTxId, encodeTxId } from "../../../src/lib/txid";
import { addMonths, monthBounds, monthSpan } from "../../../src/lib/month";
import { percentile } from "../../../src/lib/money";

describe("anomaly thresholds", () => {
  const hist = [{ food: 100 }, { food: 100 }];
  it.each([
    [149, null],
    [150, "low"],
    [200, "medium"],
    [300, "high"],
  ])("food %d against a 100 baseline → %s", (amount, severity) => {
    const out = anomalies({ food: amount }, hist, {});
    expect(out[0]?.severity ?? null).toBe(severity);
  });
  it("small excesses are noise", () => {
    expect(anomalies({ tea: 12 }, [{ tea: 4 }], {})).toEqual([]);
  });
  it("annotation is capped at the excess", () => {
    expect(anomalies({ food: 300 }, hist, { food: 1000 })[0]?.annotated_amount).toBe(200);
  });
  it("no history → nothing", () => {
    expect(anomalies({ food: 1000 }, [{}, {}], {})).toEqual([]);
  });
});

describe("pace", () => {
  it("limited: a straight line when fewer than two prior curves", () => {
    expect(pace(10, 30, 100, 0, [])).toMatchObject({
      forecast_quality: "limited",
      projected_month_total: 300,
      typical_to_date: null,
    });
  });
  it("never projects below what is already spent", () => {
    const p = pace(20, 30, 500, 0, [
      { toDate: 10, total: 10 },
      { toDate: 10, total: 10 },
    ]);
    expect(p.projected_lower).toBe(500);
  });
});

describe("month, money and ids", () => {
  it("month helpers", () => {
    expect(monthBounds("2024-12")).toEqual({ lo: "2024.12.", hi: "2024.12/" });
    expect(addMonths("2024-01", -1)).toBe("2023-12");
    expect(addMonths("2024-12", 1)).toBe("2025-01");
    expect(monthSpan("2023-11", "2024-02")).toBe(4);
    expect("2024.12.31_23.59_x.eml" < monthBounds("2024-12").hi).toBe(true);
  });
  it("percentile interpolates", () => {
    expect(percentile([1, 2, 3, 4], 50)).toBe(2.5);
    expect(percentile([], 50)).toBeNull();
  });
  it("tx ids round-trip, including unicode, and reject junk", () => {
    const id = encodeTxId("tÿ@example.com", "2024.01.01_00.00_x.eml");
    expect(decodeTxId(id)).toEqual({ forwardedTo: "tÿ@example.com", dateFileName: "2024.01.01_00.00_x.eml" });
    expect(decodeTxId("abc$")).toBeNull();
    expect(decodeTxId(encodeTxId("no-separator", "").slice(0, 8))).toBeNull();
  });
});

describe("transaction rules", () => {
  it("category canonicalization is case-insensitive and stores lowercase", () => {
    expect(canonicalCategory(" GROCERIES ", ["Groceries"])).toBe("groceries");
    expect(canonicalCategory("Grocer", ["Groceries"])).toBeNull();
  });
  it("images round-trip through columns", () => {
    const img = editableImage({
      Category: "x",
      CategoryAudit: JSON.stringify({ source: "manual" }),
      Comment: null,
      Amount: 1,
      Company: "c",
      TransactionType: "purchase",
      Ignored: 0,
      DeletedAt: null,
    });
    expect(editableImage(imageColumns(img))).toEqual(img);
  });
  it("corrected audit keeps the previous category and source", () => {
    expect(correctedAudit(JSON.stringify({ source: "override" }), "old", "manual", "t")).toMatchObject({
      source: "manual",
      previous_category: "old",
      previous_source: "override",
      reviewed_at: "t",
    });
  });
  it("search compiles every filter with positional binds", () => {
    const { where, binds } = compile({
      from: "2024-01",
      to: "2024-02",
      q: "x",
      companies: ["a"],
      minAmount: 1,
    });
    expect((where.match(/\?/g) ?? []).length).toBe(binds.length);
    expect(binds).toContain("%x%");
  });
  it("csv cells quote and defuse", () => {
    expect(csvCell('a,"b"')).toBe('"a,""b"""');
    expect(csvCell("@sum")).toBe("'@sum");
    expect(csvCell(null)).toBe("");
  });
});

describe("journal rules", () => {
  it("monthly ceiling", () => {
    expect(monthlyCeiling(1200)).toBe(100);
    expect(monthlyCeiling(0)).toBeNull();
    expect(monthlyCeiling(null)).toBeNull();
  });
  it("groups days", () => {
    const t = (dfn: string, amount: number) =>
      ({ date_file_name: dfn, amount, transaction_type: "purchase" }) as never;
    const { days } = groupDays([t("2024.01.02_00.00_a", 2), t("2024.01.01_00.00_b", 1)], {});
    expect(days.map((d) => [d.date, d.mtd_total])).toEqual([
      ["2024-01-02", 3],
      ["2024-01-01", 1],
    ]);
  });
  it("month summary and deltas", () => {
    const cur = monthSummary("2024-02", [{ key: "a", amount: 10, n: 1 }], [], []);
    const prev = monthSummary("2024-01", [{ key: "a", amount: 5, n: 1 }], [], []);
    expect(categoryDeltas(cur, prev)).toEqual([
      { category: "a", current: 10, previous: 5, delta_amount: 5, delta_pct: 100 },
    ]);
  });
});
