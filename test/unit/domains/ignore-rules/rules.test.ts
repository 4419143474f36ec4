import { describe, expect, it } from "vitest";
import {
  ignoreMatcher,
  planApply,
  selectIgnoreSuggestions,
} from "../../../../src/domains/ignore-rules/rules";

describe("ignoreMatcher", () => {
  it("matches like override tiers 0-2 and returns the pattern", () => {
    const m = ignoreMatcher(
      ["NETFLIX", "Spotify AB"],
      [{ raw_name: "SPOTIFY P0123", canonical: "Spotify AB" }],
    );
    expect(m("netflix")).toBe("NETFLIX");
    expect(m("Netflix #12, Los Gatos CA")).toBe("NETFLIX");
    expect(m("SPOTIFY P0123")).toBe("Spotify AB");
    expect(m("Hulu")).toBeNull();
    expect(m(undefined)).toBeNull();
    expect(ignoreMatcher([])("anything")).toBeNull();
  });
});

describe("planApply", () => {
  it("counts matched and updated per rule, each company flipped once", () => {
    const plan = planApply(
      ["Netflix", "NETFLIX #1", "Hulu"],
      [
        { company: "NETFLIX #1", total: 3, n: 2 },
        { company: "netflix", total: 1, n: 0 },
        { company: "Spotify", total: 4, n: 4 },
      ],
    );
    expect(plan.results).toEqual([
      { pattern: "Netflix", matched: 4, updated: 2 },
      { pattern: "NETFLIX #1", matched: 4, updated: 0 },
      { pattern: "Hulu", matched: 0, updated: 0 },
    ]);
    expect(plan.companies).toEqual(["NETFLIX #1"]);
  });
});

describe("selectIgnoreSuggestions", () => {
  it("folds case, needs 3 rows and 60%, skips pinned and dismissed, most ignored first", () => {
    const out = selectIgnoreSuggestions(
      [
        { company: "VENMO", total: 2, n: 2 },
        { company: "Venmo", total: 3, n: 1 },
        { company: "PAYPAL", total: 5, n: 5 },
        { company: "ZELLE", total: 10, n: 5 },
        { company: "PINNED", total: 9, n: 9 },
        { company: "GONE", total: 9, n: 9 },
      ],
      (c) => (c === "PINNED" ? "PINNED" : null),
      new Set(["gone"]),
    );
    expect(out).toEqual([
      { merchant: "PAYPAL", total_count: 5, ignored_count: 5, share: 1 },
      { merchant: "Venmo", total_count: 5, ignored_count: 3, share: 0.6 },
    ]);
  });
});
