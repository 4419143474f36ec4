import { describe, expect, it } from "vitest";
import { normalizeMerchant } from "../../../src/categorize/normalize";
import { buildIndex, cosine, resolveDeterministic } from "../../../src/categorize/rules";
import { nextAiState } from "../../../src/categorize/model";

describe("normalizeMerchant", () => {
  it.each([
    ["GRANITE INSURANCE #204", "granite insurance"],
    ["Starbucks Store 0123", "starbucks"],
    ["STARBUCKS 0123 VANCOUVER BC", "starbucks vancouver"],
    ["Starbucks, Vancouver, BC", "starbucks"],
    ["SQ *BLUE BOTTLE COFFEE", "blue bottle coffee"],
    ["Tim Hortons #1234 ON", "tim hortons"],
    ["A&W", "a and w"],
    ["Café Olé", "cafe ole"],
    ["", ""],
  ])("%s → %s", (input, want) => {
    expect(normalizeMerchant(input)).toBe(want);
  });
});

describe("resolver tiers 0-2", () => {
  const index = buildIndex(
    [
      { company: "Granite Insurance", category: "Insurance" },
      { company: "STARBUCKS", category: "Coffee & Cafes" },
      { company: "Shell #12", category: "Gasoline" },
      { company: "Shell 0034", category: "Auto Maintenance" },
      { company: "Costco Wholesale", category: "Groceries" },
    ],
    [{ raw_name: "COSTCO GAS", canonical: "Costco Wholesale" }],
  );

  it("tier 0: case-insensitive equality", () => {
    expect(resolveDeterministic(index, "granite insurance")).toMatchObject({
      category: "Insurance",
      source: "override",
      matched_rule: "Granite Insurance",
      confidence: 1,
      tier: 0,
    });
  });

  it("tier 1: normalized store numbers, locations and regions", () => {
    expect(resolveDeterministic(index, "GRANITE INSURANCE #204")).toMatchObject({
      source: "override_normalized",
      tier: 1,
    });
    expect(resolveDeterministic(index, "Starbucks Store 0456, Vancouver BC")).toMatchObject({
      category: "Coffee & Cafes",
    });
  });

  it("ambiguity: keys collapsing to one key with different categories drop out", () => {
    expect(resolveDeterministic(index, "SHELL #99")).toBeNull();
    expect(resolveDeterministic(index, "Shell #12")).toMatchObject({ tier: 0, category: "Gasoline" });
  });

  it("tier 2: alias substitution; skipped without aliases", () => {
    expect(resolveDeterministic(index, "COSTCO GAS #771")).toMatchObject({
      source: "override_alias",
      tier: 2,
      category: "Groceries",
      matched_rule: "Costco Wholesale",
    });
    const noAliases = buildIndex([{ company: "Costco Wholesale", category: "Groceries" }], []);
    expect(noAliases.alias).toBeNull();
    expect(resolveDeterministic(noAliases, "COSTCO GAS")).toBeNull();
  });

  it("no company, no hit", () => {
    expect(resolveDeterministic(index, null)).toBeNull();
    expect(resolveDeterministic(index, "   ")).toBeNull();
  });

  it("cosine", () => {
    expect(cosine([1, 0], [1, 0])).toBe(1);
    expect(cosine([1, 0], [0, 1])).toBe(0);
    expect(cosine([], [])).toBe(0);
    expect(cosine([0, 0], [1, 1])).toBe(0);
  });
});

describe("AI categorization status", () => {
  it("degrades after three hard errors in a row; success resets; soft errors do not count", () => {
    let s = nextAiState(null, { hard: true, reason: "http: 500" });
    expect(s).toMatchObject({ status: "ok", consecutive_errors: 1 });
    s = nextAiState(s, { hard: false, reason: "refusal" });
    expect(s.consecutive_errors).toBe(1);
    s = nextAiState(nextAiState(s, { hard: true, reason: "x" }), { hard: true, reason: "timeout: y" });
    expect(s).toMatchObject({ status: "degraded", consecutive_errors: 3, reason: "timeout: y" });
    expect(nextAiState(s, null)).toEqual({ status: "ok", reason: null, consecutive_errors: 0 });
  });
});
