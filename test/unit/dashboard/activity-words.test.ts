import { describe, expect, it } from "vitest";
import type { ActivityEntry } from "../../../dashboard/src/api/types";
import { describeEntry, summaryWords } from "../../../dashboard/src/pages/activity-words";

const categories = ["Coffee & Cafes", "Groceries", "Restaurant/Dining"];
const entry = (e: Partial<ActivityEntry>): ActivityEntry =>
  ({
    id: "act_1",
    ts: "2026-11-26T11:58:29.742Z",
    principal_kind: "session",
    principal_id: null,
    principal_label: null,
    operation_id: null,
    method: "PATCH",
    path: "/api/v1/x",
    resource_id: null,
    summary: null,
    reverted_at: null,
    reverted_by: null,
    before: null,
    after: null,
    reversible: true,
    ...e,
  }) as ActivityEntry;

describe("activity entries in the UI's words", () => {
  const recat = entry({
    id: "act_recat",
    operation_id: "patchTransaction",
    before: {
      Category: "coffee & cafes",
      Company: "Starbucks #0921",
      Amount: 6.65,
      CategoryAudit: { source: "override" },
    },
    after: {
      Category: "groceries",
      Company: "Starbucks #0921",
      Amount: 6.65,
      CategoryAudit: { source: "manual" },
    },
  });

  it("a hand add (before `{}`) says what was added, not a diff against nothing", () => {
    const added = entry({
      operation_id: "addManualTransaction",
      before: {},
      after: {
        Category: "groceries",
        CategoryAudit: { source: "manual" },
        Comment: null,
        Amount: 4.5,
        Company: "Corner Bakery",
        TransactionType: "purchase",
        Ignored: 0,
        DeletedAt: null,
      },
    });
    expect(describeEntry(added, { categories })).toBe("Added Corner Bakery $4.50, Groceries");
  });

  it("a recategorize names the merchant and both categories as the list spells them", () => {
    expect(describeEntry(recat, { categories })).toBe("Starbucks #0921: Coffee & Cafes → Groceries");
  });

  it("an undo names what it undid when that entry is on screen, else says nothing", () => {
    const undo = entry({
      operation_id: "revertActivity",
      path: "/api/v1/activity/act_recat/revert",
      before: {},
      after: {},
    });
    expect(describeEntry(undo, { categories, byId: new Map([["act_recat", recat]]) })).toBe(
      "Undid: Starbucks #0921: Coffee & Cafes → Groceries",
    );
    expect(describeEntry(undo, { categories })).toBeNull();
  });

  it("merchant rules, trash and ignore in words", () => {
    const rule = entry({
      operation_id: "putOverride",
      before: {},
      after: { company: "Starbucks", category: "Coffee & Cafes" },
    });
    expect(describeEntry(rule, { categories })).toBe("Rule: Starbucks → Coffee & Cafes");
    const gone = entry({
      operation_id: "deleteOverride",
      before: { company: "Starbucks", category: "coffee & cafes" },
      after: {},
    });
    expect(describeEntry(gone, { categories })).toBe("Removed the rule for Starbucks");
    const trash = entry({
      before: { Category: "groceries", Company: "Safeway", DeletedAt: null },
      after: { Category: "groceries", Company: "Safeway", DeletedAt: "2026-11-20T00:00:00Z" },
    });
    expect(describeEntry(trash, { categories })).toBe("Safeway: moved to the trash");
  });

  it("a statement review edit names the row and what changed, not the action code alone", () => {
    const edit = entry({
      operation_id: "updateStatementTransactionAction",
      before: {
        status: "pending",
        rows: { "4": { action: "import", edited_category: null, edited_company: null } },
      },
      after: {
        status: "in_progress",
        rows: { "4": { action: "import", edited_category: "restaurant/dining", edited_company: null } },
      },
    });
    expect(describeEntry(edit, { categories })).toBe("Statement row 4: category Restaurant/Dining");
  });
});

describe("a server summary in words (issue 39: no code on screen)", () => {
  it("says why a quarantined alert waits, without its id or stage code", () => {
    const words = summaryWords("quarantined: pf_f9dc5fa8ce881d9f2a213708 (no_parser_match)");
    expect(words).toBe(
      "An alert could not be read (no reader knows this bank's wording yet); it waits under Needs review",
    );
    expect(words).not.toMatch(/pf_|_match/);
  });
  it("leaves other ids out and keeps the words", () => {
    expect(summaryWords("dismissed pf_0123456789abcdef")).toBe("dismissed");
    expect(summaryWords("Groceries budget set")).toBe("Groceries budget set");
    expect(summaryWords(null)).toBeNull();
  });
});
