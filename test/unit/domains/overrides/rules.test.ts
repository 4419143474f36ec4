import { describe, expect, it } from "vitest";
import { aliasProblems } from "../../../../src/domains/merchant-aliases/rules";
import {
  consolidationProblems,
  type Correction,
  dismissKey,
  duplicateGroups,
  fuzzyCandidates,
  selectSuggestions,
  type SuggestionFilters,
  windowStartPrefix,
} from "../../../../src/domains/overrides/rules";

const filters = (over: Partial<SuggestionFilters> = {}): SuggestionFilters => ({
  resolvesTo: () => null,
  dismissedAt: () => undefined,
  display: (c) => c.charAt(0).toUpperCase() + c.slice(1),
  ...over,
});
const c = (company: string, category: string, n: number, last = "2025-06-01T00:00:00Z"): Correction => ({
  company,
  category,
  n,
  last_corrected: last,
});

describe("dismissKey and windows", () => {
  it("keys are company_lower|category_lower, trimmed", () => {
    expect(dismissKey(" Save On ", "GROCERIES")).toBe("save on|groceries");
  });

  it("the window starts on the first day of the month `months - 1` before now (UTC)", () => {
    const now = new Date("2025-03-15T00:00:00Z");
    expect(windowStartPrefix(now, 1)).toBe("2025.03.01");
    expect(windowStartPrefix(now, 12)).toBe("2024.04.01");
    expect(windowStartPrefix(now, 24)).toBe("2023.04.01");
  });
});

describe("selectSuggestions", () => {
  it("folds company case and category case, keeps the latest correction time", () => {
    const out = selectSuggestions(
      [
        c("COSTCO", "groceries", 1, "2025-05-01T00:00:00Z"),
        c("Costco", "Groceries", 2, "2025-06-03T00:00:00Z"),
      ],
      filters(),
    );
    expect(out).toEqual([
      {
        company: "Costco",
        suggested_category: "Groceries",
        correction_count: 3,
        last_corrected: "2025-06-03T00:00:00Z",
      },
    ]);
  });

  it("needs 2 corrections and a strict majority", () => {
    expect(selectSuggestions([c("A", "x", 1)], filters())).toEqual([]);
    expect(selectSuggestions([c("A", "x", 2), c("A", "y", 2)], filters())).toEqual([]);
    expect(selectSuggestions([c("A", "x", 3), c("A", "y", 2)], filters())).toHaveLength(1);
  });

  it("skips what the overrides already give, and dismissals not followed by a newer correction", () => {
    const corrections = [c("A", "x", 2, "2025-06-01T00:00:00Z"), c("B", "y", 2, "2025-06-10T00:00:00Z")];
    const out = selectSuggestions(
      corrections,
      filters({
        resolvesTo: (co) => (co === "A" ? "X" : null),
        dismissedAt: (key) => (key === "b|y" ? "2025-06-05T00:00:00Z" : undefined),
      }),
    );
    expect(out.map((s) => s.company)).toEqual(["B"]);
    const hidden = selectSuggestions(
      [c("B", "y", 2, "2025-06-01T00:00:00Z")],
      filters({ dismissedAt: () => "2025-06-05T00:00:00Z" }),
    );
    expect(hidden).toEqual([]);
  });

  it("orders by corrections, then recency, then name", () => {
    const out = selectSuggestions(
      [c("C", "x", 2, "2025-01-01T00:00:00Z"), c("B", "x", 2, "2025-02-01T00:00:00Z"), c("A", "x", 5)],
      filters(),
    );
    expect(out.map((s) => s.company)).toEqual(["A", "B", "C"]);
  });
});

describe("duplicateGroups", () => {
  it("groups by normalized key, only groups of two or more, unanimous when categories agree in any case", () => {
    const groups = duplicateGroups([
      { company: "SHELL #1", category: "Gasoline" },
      { company: "Shell 22", category: "gasoline" },
      { company: "COSTCO", category: "Groceries" },
      { company: "#44", category: "Groceries" },
    ]);
    expect(groups).toEqual([
      {
        normalized_key: "shell",
        members: [
          { company: "SHELL #1", category: "Gasoline" },
          { company: "Shell 22", category: "gasoline" },
        ],
        unanimous_category: "Gasoline",
      },
    ]);
  });
});

describe("fuzzyCandidates", () => {
  it("keeps scores at or above the floor, best first, one per rule, skipping excluded rules", () => {
    const out = fuzzyCandidates(
      [1, 0],
      [
        { rule: "A", category: "x", vector: [1, 0] },
        { rule: "a", category: "x", vector: [0.9, 0.1] },
        { rule: "B", category: "y", vector: [0.6, 0.8] },
        { rule: "C", category: "z", vector: [0, 1] },
        { rule: "D", category: "w", vector: [1, 0.01] },
      ],
      0.5,
      new Set(["d"]),
    );
    expect(out).toEqual([
      { category: "x", matched_rule: "A", confidence: 1, tier: "fuzzy" },
      { category: "y", matched_rule: "B", confidence: 0.6, tier: "fuzzy" },
    ]);
  });
});

describe("consolidationProblems and aliasProblems", () => {
  it("reports members absent from the overrides and members of another key", () => {
    const overrides = [
      { company: "SHELL #1", category: "Gasoline" },
      { company: "COSTCO", category: "Groceries" },
    ];
    expect(consolidationProblems(overrides, ["shell #1", "SHELL #2"], "shell")).toEqual({
      missing: ["SHELL #2"],
      foreign: [],
    });
    expect(consolidationProblems(overrides, ["COSTCO"], "shell")).toEqual({
      missing: [],
      foreign: ["COSTCO"],
    });
  });

  it("an alias must change something after normalization", () => {
    expect(aliasProblems("AMZN MKTP", "Amazon")).toEqual([]);
    expect(aliasProblems("STARBUCKS #1", "starbucks").map((i) => i.loc)).toEqual([
      ["body", "canonical_name"],
    ]);
    expect(aliasProblems("#1", "#2").map((i) => i.loc.at(-1))).toEqual(["raw_name", "canonical_name"]);
  });
});
