import { describe, expect, it } from "vitest";
import { categoryKey, merchantKey, merchantName } from "../../../src/categorize/normalize";
import { parseGroups, parseTargets } from "../../../src/domains/budget/rules";
import { renameInDoc } from "../../../src/domains/budget/rename";
import { directedType, transferDirection } from "../../../src/ingest/institutions";

// Issue 34: one identity per category and per payer, and an e-Transfer's direction from its words.

describe("categoryKey: one category whatever its case or spacing", () => {
  it.each([
    ["Groceries", "groceries"],
    ["  GROCERIES ", "groceries"],
    ["Home \t  Goods", "home goods"],
    ["ÉPICERIE", "épicerie"],
    ["", "uncategorized"],
    [null, "uncategorized"],
  ])("%j → %j", (name, key) => expect(categoryKey(name)).toBe(key));

  it("a targets document keyed as a person typed it (the demo's `Groceries`) reads keyed by identity", () => {
    const doc = parseTargets({
      money: "cents",
      spending_ceiling: 6_000_000,
      categories: { Groceries: { target: 1_200_000 }, " Home  Goods": { target: 240_000 } },
    });
    expect(Object.keys(doc.categories).sort()).toEqual(["groceries", "home goods"]);
    expect(parseGroups({ groups: [{ name: "Essentials", categories: ["Groceries", "groceries"] }] })).toEqual(
      {
        groups: [{ name: "Essentials", categories: ["groceries"] }],
      },
    );
  });

  it("a rename finds a target stored with its typed case", () => {
    const next = renameInDoc(
      "targets",
      { categories: { Groceries: { target: 1 } } },
      "groceries",
      "Food",
    ) as {
      categories: Record<string, unknown>;
    };
    expect(Object.keys(next.categories)).toEqual(["food"]);
  });
});

describe("merchantName: one payer whatever the codes that vary between its alerts", () => {
  it.each([
    ["NORTHWIND CONSULTING | u4VUG5LyKWbR", "NORTHWIND CONSULTING"],
    ["NORTHWIND CONSULTING | LhWK3GhSvUQD", "NORTHWIND CONSULTING"],
    ["JANE DOE | rent | CA1xYz", "JANE DOE"],
    ["AMZN Mktp CA*2K4T93", "AMZN Mktp CA"],
    ["WAL-MART #3045", "WAL-MART"],
    ["SHELL C01234", "SHELL"],
    ["McDonald's 40123", "McDonald's"],
    ["Tim Hortons #0123 Vancouver BC", "Tim Hortons Vancouver BC"],
    ["PAYPAL *1234 STORE", "PAYPAL STORE"],
    ["Sam LhWKGhSvUQD", "Sam"],
    // Words stay words.
    ["7-Eleven", "7-Eleven"],
    ["Route66 Diner", "Route66 Diner"],
    ["2nd Cup", "2nd Cup"],
    ["iPhone Store", "iPhone Store"],
    ["SQ *COFFEE SHOP", "SQ *COFFEE SHOP"],
    ["IKEA Coquitlam", "IKEA Coquitlam"],
    ["407 ETR", "407 ETR"],
  ])("%j → %j", (raw, name) => expect(merchantName(raw)).toBe(name));

  it("names equal but for their codes share one key", () => {
    const keys = new Set(
      [
        "NORTHWIND CONSULTING | u4VUG5LyKWbR",
        "Northwind Consulting | LhWK3GhSvUQD",
        "NORTHWIND  CONSULTING",
      ].map(merchantKey),
    );
    expect([...keys]).toEqual(["northwind consulting"]);
  });

  it("a name that is only a code is kept", () => expect(merchantName("#1234")).toBe("#1234"));
});

describe("an e-Transfer's direction from the alert's own words", () => {
  it.each([
    ["The $1,875.00 (CAD) you sent to LANDLORD INC has been successfully deposited.", "sent"],
    [
      "The transfer you sent to PAT KELLY for the amount of $40 (CAD) has been successfully deposited.",
      "sent",
    ],
    ["PAT KELLY has accepted your transfer of $1,250", "sent"],
    ["Vous avez envoyé 1 875,00 $ à LOCATEUR INC.", "sent"],
    ["PAT KELLY a accepté votre virement de 40,00 $", "sent"],
    [
      "JANE DOE has sent you money: $1,050.25 (CAD), and the money has been automatically deposited",
      "received",
    ],
    ["Auto-deposit: $50.00 from SAM", "received"],
    ["JEAN TREMBLAY vous a envoyé 50,00 $ et l'argent a été déposé automatiquement.", "received"],
    ["Your statement is ready.", null],
  ])("%j → %s", (text, dir) => expect(transferDirection(text)).toBe(dir));

  it("only an e-transfer the person sent is stored as money out", () => {
    const sent = "The $1,875.00 (CAD) you sent to LANDLORD INC has been successfully deposited.";
    expect(directedType("e-transfer", sent)).toBe("e-transfer-sent");
    expect(directedType("e-transfer", "JANE has sent you $5 ... automatically deposited")).toBe("e-transfer");
    expect(directedType("purchase", sent)).toBe("purchase");
  });
});
