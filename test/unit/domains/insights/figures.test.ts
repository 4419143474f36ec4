import { describe, expect, it } from "vitest";
import { extractFigures, validateBriefing, withoutFences } from "../../../../src/domains/insights/figures";

const ctx = { current: { total: 1234.56, pct: 12.5, ratio: 0.375 }, rows: [{ amount: -45.1 }, "88.20"] };

describe("briefing figure check", () => {
  it("matches a context number at the figure's own precision: 0, 1 or 2 decimals", () => {
    const v = validateBriefing("Spent $1,234.56, about $1,235, or $1,234.6; not $1,234.5 nor $1,230.", ctx);
    expect(v.summary).toEqual({ total: 5, matched: 3, unmatched: 2 });
    expect(v.unmatched.map((f) => f.raw)).toEqual(["$1,234.5", "$1,230"]);
    expect(v.ok).toBe(false);
  });

  it("percentages are compared as printed, never scaled from a ratio", () => {
    expect(validateBriefing("Up 12.5% this month.", ctx).ok).toBe(true);
    expect(validateBriefing("Up 13% this month.", ctx).ok).toBe(true); // 12.5 rounds to 13 at 0 dp
    const scaled = validateBriefing("That is 37.5% of the total.", ctx);
    expect(scaled.ok).toBe(false);
    expect(scaled.unmatched[0]).toMatchObject({ raw: "37.5%", kind: "percent", value: 37.5 });
  });

  it("signs are ignored and numeric strings in the context count", () => {
    expect(validateBriefing("Down -$45.10, and $88.20 at the bakery.", ctx).summary).toEqual({
      total: 2,
      matched: 2,
      unmatched: 0,
    });
  });

  it("fenced code is not prose: its figures are neither extracted nor checked", () => {
    const md = "Total $1,234.56.\n```\n$777.77 and 66%\n```\n~~~js\nconst x = '$1';\n~~~\nDone at 12.5%.";
    expect(extractFigures(md).map((f) => f.raw)).toEqual(["$1,234.56", "12.5%"]);
    expect(withoutFences(md)).toHaveLength(md.length);
    expect(validateBriefing(md, ctx).ok).toBe(true);
  });

  it("a briefing without figures is ok with zero totals; snippets carry the surrounding words", () => {
    expect(validateBriefing("A calm month.", ctx)).toEqual({
      ok: true,
      summary: { total: 0, matched: 0, unmatched: 0 },
      unmatched: [],
    });
    const [f] = validateBriefing("The gym charged $59.99 again this month.", ctx).unmatched;
    expect(f!.snippet).toBe("The gym charged $59.99 again this month.");
  });
});
