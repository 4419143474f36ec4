import { describe, expect, it } from "vitest";
import { groupDays, monthlyCeiling } from "../../../../src/domains/journal/rules";
import { anomalies, categoryDeltas, monthSummary, pace } from "../../../../src/domains/summary/rules";
import {
  canonicalCategory,
  correctedAudit,
  EditableImage,
  editableImage,
  imageColumns,
} from "../../../../src/domains/transactions/rules";
import { csvCell } from "../../../../src/domains/transactions/search-rules";
import { decodeTxId, encodeTxId } from "../../../../src/lib/txid";
import { addMonths, monthBounds, monthSpan } from "../../../../src/lib/month";
import { percentile, toCents, asCents, fromCentsField } from "../../../../src/lib/money";

// The rules take and give integer cents; the amounts below are written in dollars.
const c = toCents;
const cents = (rec: Record<string, number>) =>
  Object.fromEntries(Object.entries(rec).map(([k, v]) => [k, c(v)]));

describe("anomaly thresholds", () => {
  const hist = [cents({ food: 100 }), cents({ food: 100 })];
  it.each([
    [149, null],
    [150, "low"],
    [200, "medium"],
    [300, "high"],
  ])("food %d against a 100 baseline → %s", (amount, severity) => {
    const out = anomalies(cents({ food: amount }), hist, {});
    expect(out[0]?.severity ?? null).toBe(severity);
  });
  it("small excesses are noise", () => {
    expect(anomalies(cents({ tea: 12 }), [cents({ tea: 4 })], {})).toEqual([]);
    // 24.99 over the baseline is noise; 25.00 is not
    expect(anomalies(cents({ tea: 24.99 }), [{}, cents({ x: 1 })], {})).toEqual([]);
    expect(anomalies(cents({ tea: 25 }), [{}, cents({ x: 1 })], {})[0]?.severity).toBe("medium");
  });
  it("annotation is capped at the excess", () => {
    expect(
      fromCentsField(anomalies(cents({ food: 300 }), hist, cents({ food: 1000 }))[0]!.annotated_amount),
    ).toBe(200);
  });
  it("reasons print dollars", () => {
    expect(anomalies(cents({ food: 300 }), hist, {})[0]?.reason).toBe(
      "$300.00 vs a typical $100.00 (3.0× the 2-month average)",
    );
  });
  it("no history → nothing", () => {
    expect(anomalies(cents({ food: 1000 }), [{}, {}], {})).toEqual([]);
  });
});

describe("pace", () => {
  it("limited: a straight line when fewer than two prior curves", () => {
    expect(pace(10, 30, c(100), asCents(0), [])).toMatchObject({
      forecast_quality: "limited",
      projected_month_total: c(300),
      typical_to_date: null,
    });
  });
  it("never projects below what is already spent", () => {
    const p = pace(20, 30, c(500), asCents(0), [
      { toDate: c(10), total: c(10) },
      { toDate: c(10), total: c(10) },
    ]);
    expect(p.projected_lower).toBe(c(500));
  });
  it("rounds a projection to the cent", () => {
    // 100.00 over 3 of 31 days → 1033.333… → 1033.33
    expect(pace(3, 31, c(100), asCents(0), []).projected_month_total).toBe(103_333);
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
      CategoryAudit: { source: "manual" },
      Comment: null,
      Amount: asCents(1),
      Company: "c",
      TransactionType: "purchase",
      Ignored: 0,
      DeletedAt: null,
    });
    expect(editableImage(imageColumns(img))).toEqual(img);
  });
  it("an older image (audit as JSON text, a boolean, fields missing) reads in the image's shape", () => {
    const old = EditableImage.parse({
      Category: "x",
      CategoryAudit: '{"source":"manual"}',
      Amount: 0.29,
      Ignored: true,
    });
    expect(imageColumns(old)).toEqual({
      Category: "x",
      CategoryAudit: { source: "manual" },
      Comment: null,
      Amount: 29,
      Company: null,
      TransactionType: null,
      Ignored: 1,
      DeletedAt: null,
    });
    expect(EditableImage.safeParse({ Category: 5 }).success).toBe(false);
  });
  it("corrected audit keeps the previous category and source", () => {
    expect(correctedAudit(JSON.stringify({ source: "override" }), "old", "manual", "t")).toMatchObject({
      source: "manual",
      previous_category: "old",
      previous_source: "override",
      reviewed_at: "t",
    });
  });
  it("csv cells quote and defuse", () => {
    expect(csvCell('a,"b"')).toBe('"a,""b"""');
    expect(csvCell("@sum")).toBe("'@sum");
    expect(csvCell(null)).toBe("");
  });
});

describe("journal rules", () => {
  it("monthly ceiling (cents, rounded to the cent)", () => {
    expect(monthlyCeiling(c(1200))).toBe(c(100));
    expect(monthlyCeiling(c(1000))).toBe(c(83.33));
    expect(monthlyCeiling(asCents(0))).toBeNull();
    expect(monthlyCeiling(null)).toBeNull();
  });
  it("groups days: totals add cents exactly and leave as decimal", () => {
    const t = (dfn: string, amount: number, type = "purchase") => ({
      dateFileName: dfn,
      type,
      amount: c(amount),
      tx: dfn,
    });
    const { days, monthTotal } = groupDays(
      [
        t("2024.01.02_00.00_a", 0.2),
        t("2024.01.02_01.00_c", 0.1),
        t("2024.01.02_02.00_d", 50, "deposit"),
        t("2024.01.01_00.00_b", 1),
      ],
      {},
    );
    expect(days.map((d) => [d.date, d.day_total, d.mtd_total, d.deposit_total])).toEqual([
      ["2024-01-02", 0.3, 1.3, 50],
      ["2024-01-01", 1, 1, 0],
    ]);
    expect(days[0]!.transactions).toEqual(["2024.01.02_02.00_d", "2024.01.02_01.00_c", "2024.01.02_00.00_a"]);
    expect(monthTotal).toBe(1.3);
  });
  it("month summary and deltas", () => {
    const cur = monthSummary("2024-02", [{ key: "a", amount: c(10), n: 1 }], [], []);
    const prev = monthSummary("2024-01", [{ key: "a", amount: c(5), n: 1 }], [], []);
    expect(categoryDeltas(cur, prev)).toEqual([
      { category: "a", current: c(10), previous: c(5), delta_amount: c(5), delta_pct: 100 },
    ]);
  });
});
