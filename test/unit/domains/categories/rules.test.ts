import { describe, expect, it } from "vitest";
import {
  DEFAULT_CATEGORY_NAMES,
  defaultRows,
  MISCELLANEOUS,
} from "../../../../src/domains/categories/defaults";
import {
  budgetNames,
  effectiveRows,
  findCategory,
  groupsOf,
  iconsOf,
  isProtected,
  nextPosition,
  parseIfMatch,
  toManaged,
} from "../../../../src/domains/categories/rules";

describe("defaults", () => {
  it("are SPEC.md's 39 names, each in a group, positions in order", () => {
    const rows = defaultRows();
    expect(rows).toHaveLength(39);
    expect(DEFAULT_CATEGORY_NAMES).toContain(MISCELLANEOUS);
    expect(rows.every((r) => r.group_name !== null)).toBe(true);
    expect(rows.map((r) => r.position)).toEqual([...Array(39).keys()]);
    expect(new Set(rows.map((r) => r.name.toLowerCase())).size).toBe(39);
  });
});

describe("category rules", () => {
  const rows = [
    { name: "Pets", group_name: "Family", icon: "paw", position: 3 },
    { name: "Books", group_name: "lifestyle", icon: null, position: 7 },
    { name: "Art", group_name: "Lifestyle", icon: null, position: 1 },
    { name: "Misc", group_name: null, icon: null, position: 0 },
  ];

  it("looks names up case-insensitively and protects Miscellaneous in any case", () => {
    expect(findCategory(rows, "PETS")?.name).toBe("Pets");
    expect(findCategory(rows, "Dogs")).toBeUndefined();
    expect(isProtected("miscellaneous")).toBe(true);
    expect(isProtected("Misc")).toBe(false);
  });

  it("uses the defaults only while nothing is stored", () => {
    expect(effectiveRows([]).stored).toBe(false);
    expect(effectiveRows([]).rows).toHaveLength(39);
    expect(effectiveRows(rows)).toEqual({ rows, stored: true });
  });

  it("appends after the highest position", () => {
    expect(nextPosition(rows)).toBe(8);
    expect(nextPosition([])).toBe(0);
  });

  it("lists distinct groups alphabetically, folding case, first spelling wins", () => {
    expect(groupsOf(rows)).toEqual(["Family", "lifestyle"]);
    expect(toManaged(rows, 4)).toMatchObject({ count: 4, version: 4, groups: ["Family", "lifestyle"] });
    expect(toManaged(rows, 4).categories[3]).toEqual({ name: "Misc", group: null });
  });

  it("maps icons by category name", () => {
    expect(iconsOf(rows, 2)).toEqual({ icons: { Pets: "paw" }, version: 2 });
  });

  it("reads budget targets documents defensively", () => {
    expect(budgetNames({ categories: { pets: { target: 1 } } }, "Pets")).toBe(true);
    expect(budgetNames({ categories: { pets: {} } }, "Art")).toBe(false);
    expect(budgetNames({ categories: ["Pets"] }, "Pets")).toBe(false);
    expect(budgetNames(null, "Pets")).toBe(false);
    expect(budgetNames("x", "Pets")).toBe(false);
  });

  it.each([
    [undefined, null],
    ["", null],
    ["*", null],
    ["3", 3],
    ['"12"', 12],
    ['W/"7"', 7],
    ["abc", "invalid"],
    ["-1", "invalid"],
    ["1.5", "invalid"],
  ] as const)("parses If-Match %j as %j", (header, want) => {
    expect(parseIfMatch(header)).toBe(want);
  });
});
