import { asCents } from "../../../../src/lib/money";
import { describe, expect, it } from "vitest";
import { packagedMapping, parseMapping, renameCategory } from "../../../../src/domains/tax/mapping";
import { buildLines, evidenceOf, type YearRow } from "../../../../src/domains/tax/rules";
import { slug } from "../../../../src/domains/tax/zip";

describe("the packaged mapping", () => {
  it("loads: seven lines, no category claimed twice", () => {
    const m = packagedMapping();
    expect(m.lines.map((l) => l.key)).toEqual([
      "charitable",
      "medical",
      "childcare",
      "moving",
      "tuition",
      "dues",
      "instalments",
    ]);
    expect(m.byCategory.get("therapy")).toBe("medical");
  });

  it("reports a category claimed by two lines, a reserved key and a duplicate key in words", () => {
    const { mapping, issues } = parseMapping({
      lines: [
        { key: "a", label: "A", categories: ["Gifts"] },
        { key: "a", label: "A2", categories: ["GIFTS"] },
        { key: "other", label: "O", categories: [] },
      ],
    });
    expect(mapping).toBeNull();
    expect(issues.map((i) => i.msg)).toEqual([
      "Line key 'a' appears twice",
      "`other` is reserved for the Other claimable line",
    ]);
    const two = parseMapping({
      lines: [
        { key: "a", label: "A", categories: ["Gifts"] },
        { key: "b", label: "B", categories: ["gifts"] },
      ],
    });
    expect(two.issues[0]!.msg).toBe("Category 'gifts' is claimed by two lines: 'a' and 'b'");
  });

  it("carries a category rename and a delete through", () => {
    const m = packagedMapping();
    expect(renameCategory(m, "health care", "Medical")!.byCategory.get("medical")).toBe("medical");
    expect(renameCategory(m, "Therapy", null)!.lines[1]!.categories).toEqual(["Health Care"]);
    expect(renameCategory(m, "Groceries", "Food")).toBeNull();
  });
});

describe("membership and evidence", () => {
  const row = (id: string, category: string, amount: number): YearRow => ({
    txId: id,
    forwardedTo: "f",
    dateFileName: `2025.01.0${id}_x`,
    amount: asCents(amount),
    company: "c",
    category,
    statementSource: null,
    fileName: "e.eml",
    receipts: 0,
  });
  it("(derived ∪ included) − excluded, other only when populated", () => {
    const m = packagedMapping();
    const rows = [row("1", "Moving", 100), row("2", "Moving", 50), row("3", "Pets", 7)];
    let lines = buildLines(m, rows, new Map());
    expect(lines.find((l) => l.line.key === "moving")!.total).toBe(150);
    expect(lines.some((l) => l.line.key === "other")).toBe(false);
    lines = buildLines(
      m,
      rows,
      new Map([
        ["2", { mode: "exclude", lineKey: null }],
        ["3", { mode: "include", lineKey: "moving" }],
      ]),
    );
    const moving = lines.find((l) => l.line.key === "moving")!;
    expect([moving.total, moving.excluded.length]).toEqual([100, 1]);
    expect(lines.find((l) => l.line.key === "other")!.total).toBe(7);
  });
  it("receipt beats statement beats email", () => {
    expect(evidenceOf({ receipts: 1, statementSource: "s", fileName: "f" })).toBe("receipt");
    expect(evidenceOf({ receipts: 0, statementSource: "s", fileName: "f" })).toBe("statement");
    expect(evidenceOf({ receipts: 0, statementSource: null, fileName: "f" })).toBe("email");
    expect(evidenceOf({ receipts: 0, statementSource: " ", fileName: null })).toBe("none");
  });
  it("slugs never carry raw names into zip paths", () => {
    expect(slug("../../etc/passwd")).toBe("etc-passwd");
    expect(slug("Café Déjà Vu")).toBe("cafe-deja-vu");
    expect(slug("日本")).toBe("row");
  });
});
