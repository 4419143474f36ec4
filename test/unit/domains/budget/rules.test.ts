import { describe, expect, it } from "vitest";
import {
  configIssues,
  configResponse,
  cv,
  elapsedYearFraction,
  groupsDoc,
  headline,
  inferCategoryType,
  pacePercent,
  paceStatus,
  parseGroups,
  parseTargets,
  targetsDoc,
} from "../../../../src/domains/budget/rules";
import { toCents, asCents } from "../../../../src/lib/money";

const c = toCents;

describe("targets documents", () => {
  it("stores the annual target in cents, derives monthly_amount = target / 12, lowercases and sorts keys", () => {
    const doc = targetsDoc({
      spending_ceiling: 48000,
      categories: {
        Rent: { target: 24000, input_mode: "monthly", category_type: "fixed" },
        " Groceries ": { target: 1000, input_mode: "yearly", category_type: "variable" },
      },
    });
    expect(Object.keys(doc.categories)).toEqual(["groceries", "rent"]);
    expect(doc).toMatchObject({ money: "cents", spending_ceiling: c(48000) });
    expect(doc.categories.rent).toEqual({
      target: c(24000),
      input_mode: "monthly",
      monthly_amount: c(2000),
      category_type: "fixed",
    });
    // 1000 / 12 = 83.333… → cents
    expect(doc.categories.groceries!.monthly_amount).toBe(c(83.33));
    // the response speaks decimal
    expect(configResponse(2024, doc, { groups: [] }, { targets: 1, groups: 0 }).categories.groceries).toEqual(
      {
        target: 1000,
        input_mode: "yearly",
        monthly_amount: 83.33,
        category_type: "variable",
      },
    );
  });

  it("allocated_total sums targets; unallocated = ceiling - allocated (negative when over)", () => {
    const t = targetsDoc({
      spending_ceiling: 1000,
      categories: {
        a: { target: 700, input_mode: "yearly", category_type: "lumpy" },
        b: { target: 450.5, input_mode: "yearly", category_type: "variable" },
      },
    });
    const r = configResponse(2024, t, { groups: [] }, { targets: 3, groups: 0 });
    expect(r).toMatchObject({
      year: 2024,
      allocated_total: 1150.5,
      unallocated: -150.5,
      targets_version: 3,
      groups_version: 0,
    });
  });

  it("finds keys equal up to case, duplicate group names and a category in two groups", () => {
    const issues = configIssues({
      categories: {
        Rent: { target: 1, input_mode: "yearly", category_type: "fixed" },
        rent: { target: 2, input_mode: "yearly", category_type: "fixed" },
      },
      groups: [
        { name: "Home", categories: ["rent", "Rent"] },
        { name: "home", categories: [] },
        { name: "Other", categories: ["RENT"] },
      ],
    });
    expect(issues.map((i) => i.loc)).toEqual([
      ["body", "categories", "rent"],
      ["body", "groups", 1, "name"],
      ["body", "groups", 2, "categories"],
    ]);
  });

  it("groups: names trimmed, categories lowercased and de-duplicated", () => {
    expect(groupsDoc([{ name: " Home ", categories: ["Rent", "rent", "Utilities"] }])).toEqual({
      groups: [{ name: "Home", categories: ["rent", "utilities"] }],
    });
  });

  it("parses stored documents tolerantly", () => {
    expect(parseTargets(null)).toEqual({ money: "cents", spending_ceiling: 0, categories: {} });
    expect(parseTargets({ money: "cents", categories: { x: { target: 12_000 } } }).categories.x).toEqual({
      target: c(120),
      input_mode: "yearly",
      monthly_amount: c(10),
      category_type: "variable",
    });
    expect(parseGroups({ groups: [{ name: "A", categories: ["x"] }, { bad: 1 }] })).toEqual({
      groups: [{ name: "A", categories: ["x"] }],
    });
    expect(parseGroups({})).toEqual({ groups: [] });
  });
});

describe("legacy decimal documents", () => {
  // A targets document written before money moved to cents (an R2 backup, a ledger image) has no
  // `money` marker and decimal amounts; migration 0007 turned the stored ones into their cents twin.
  const legacy = {
    spending_ceiling: 48000.5,
    categories: {
      groceries: { target: 1000, input_mode: "yearly", monthly_amount: 83.33, category_type: "variable" },
      rent: { target: 24000.1, input_mode: "monthly", monthly_amount: 2000.01, category_type: "fixed" },
      gifts: { target: 0.3, input_mode: "yearly", category_type: "lumpy" },
    },
  };
  const twin = {
    money: "cents",
    spending_ceiling: 4_800_050,
    categories: {
      groceries: { target: 100_000, input_mode: "yearly", monthly_amount: 8333, category_type: "variable" },
      rent: { target: 2_400_010, input_mode: "monthly", monthly_amount: 200_001, category_type: "fixed" },
      gifts: { target: 30, input_mode: "yearly", category_type: "lumpy" },
    },
  };

  it("a decimal document and its cents twin give the same config response", () => {
    const groups = { groups: [{ name: "Home", categories: ["rent"] }] };
    const versions = { targets: 2, groups: 1 };
    const fromLegacy = configResponse(2024, parseTargets(legacy), groups, versions);
    expect(fromLegacy).toEqual(configResponse(2024, parseTargets(twin), groups, versions));
    expect(fromLegacy).toMatchObject({
      spending_ceiling: 48000.5,
      allocated_total: 25000.4,
      unallocated: 23000.1,
    });
    expect(fromLegacy.categories.rent).toEqual(legacy.categories.rent);
    // a missing monthly_amount is derived: 0.30 / 12 = 0.025 → 0.03 (half away from zero)
    expect(fromLegacy.categories.gifts!.monthly_amount).toBe(0.03);
  });

  it("the cents twin of an update round-trips through the stored JSON", () => {
    const doc = targetsDoc({
      spending_ceiling: 48000.5,
      categories: { Rent: { target: 24000.1, input_mode: "monthly", category_type: "fixed" } },
    });
    expect(parseTargets(JSON.parse(JSON.stringify(doc)))).toEqual(doc);
  });
});

describe("category type inference", () => {
  it("fixed: spend in >= 80% of months with a CV of at most 0.15", () => {
    expect(inferCategoryType([2000, 2000, 2000, 2000, 2000, 2000])).toBe("fixed");
    // 5 of 6 months (83%), active amounts 100,110,100,100,90: CV ≈ 0.063
    expect(inferCategoryType([100, 110, 0, 100, 100, 90])).toBe("fixed");
  });

  it("variable: regular spend that moves more than 15%", () => {
    // mean 490, population std ≈ 80.4, CV ≈ 0.164
    expect(inferCategoryType([400, 550, 480, 620, 390, 500])).toBe("variable");
    expect(cv([400, 550, 480, 620, 390, 500])).toBeCloseTo(0.1641, 3);
    // 3 of 6 months (50%, not below half), CV over all months = 1.0 (not above)
    expect(inferCategoryType([100, 0, 100, 0, 100, 0])).toBe("variable");
  });

  it("lumpy: spend in fewer than half the months, or a CV above 1 over all months", () => {
    expect(inferCategoryType([0, 0, 1500, 0, 0, 200])).toBe("lumpy");
    // mean 175, std ≈ 369, CV ≈ 2.1
    expect(inferCategoryType([10, 10, 10, 1000, 10, 10])).toBe("lumpy");
  });

  it("no spending at all is variable", () => {
    expect(inferCategoryType([0, 0, 0])).toBe("variable");
    expect(inferCategoryType([])).toBe("variable");
  });
});

describe("pace", () => {
  it("on_track within ±10% of expected, under below, over above", () => {
    expect(paceStatus(90, 100)).toBe("on_track");
    expect(paceStatus(110, 100)).toBe("on_track");
    expect(paceStatus(89.99, 100)).toBe("under");
    expect(paceStatus(110.01, 100)).toBe("over");
  });

  it("nothing expected: any spending is over, none is on_track", () => {
    expect(paceStatus(5, 0)).toBe("over");
    expect(paceStatus(1, 0)).toBe("over"); // one cent
    expect(paceStatus(0, 0)).toBe("on_track");
    expect(pacePercent(5, 0)).toBe(0);
    expect(pacePercent(1000, 1229.51)).toBe(81.3);
  });

  it("elapsed year fraction counts today; past years are 1, future years 0", () => {
    // 2024 is a leap year: 31 + 29 + 15 = day 75 of 366
    expect(elapsedYearFraction(2024, "2024-03-15")).toBeCloseTo(75 / 366, 10);
    expect(elapsedYearFraction(2023, "2023-12-31")).toBe(1);
    expect(elapsedYearFraction(2023, "2024-01-01")).toBe(1);
    expect(elapsedYearFraction(2025, "2024-06-01")).toBe(0);
  });

  it("headline (amounts in cents, printed in dollars)", () => {
    expect(headline(2024, c(12000), c(4250), c(2459.02), "over")).toBe(
      "Over pace: $4,250.00 spent vs $2,459.02 expected of a $12,000.00 ceiling",
    );
    expect(headline(2024, asCents(0), c(12.5), asCents(0), "on_track")).toBe(
      "No spending ceiling set for 2024; $12.50 spent so far",
    );
  });
});
