import { asCents } from "../../../src/lib/money";
import { describe, expect, it } from "vitest";
import { monthlyTarget } from "../../../src/ingest/context";
import { shouldNotify, transactionMessage } from "../../../src/ingest/notify";
import { looksLikeAlert, messageIdQuarantineId, quarantineId } from "../../../src/ingest/quarantine";
import type { TransactionRecord } from "../../../src/ingest/types";

const tx = {
  Amount: 4210,
  Company: "FRESH MART",
  TransactionType: "purchase",
  Category: "groceries",
  Institution: "CIBC",
  TransactionContext: null,
} as unknown as TransactionRecord;

describe("notifications", () => {
  it("blocked companies and unknown types are suppressed", () => {
    expect(shouldNotify(tx, [])).toBe(true);
    expect(shouldNotify(tx, ["fresh mart"])).toBe(false);
    expect(shouldNotify({ ...tx, TransactionType: null }, [])).toBe(false);
    expect(shouldNotify({ ...tx, TransactionType: "deposit" }, [])).toBe(false);
    expect(shouldNotify({ ...tx, Company: null, TransactionType: "withdrawal" }, ["x"])).toBe(true);
  });

  it("the text carries budget progress and visit count when context exists", () => {
    expect(transactionMessage(tx, "Groceries").text).toBe(
      "$42.10 purchase at FRESH MART (Groceries) via CIBC",
    );
    const m = transactionMessage(
      {
        ...tx,
        TransactionContext: {
          money: "cents",
          category_month_total: asCents(25_000),
          merchant_month_count: 3,
          category_budget_target: asCents(40_000),
          category_budget_pct: 62.5,
        },
      },
      "Groceries",
    );
    expect(m.text).toContain("Groceries: $250.00 this month (62.5% of $400.00 budget)");
    expect(m.text).toContain("3rd visit to FRESH MART this month");
  });
});

describe("quarantine rules", () => {
  it("AI-off capture: a currency amount plus two alert keywords", () => {
    expect(looksLikeAlert("Your card was charged $12.00 for a purchase.")).toBe(true);
    expect(looksLikeAlert("Your purchase total is $12.00")).toBe(false);
    expect(looksLikeAlert("A purchase transaction happened")).toBe(false);
    expect(looksLikeAlert("Newsletter: win $1,000 in our contest!")).toBe(false);
  });

  it("the AI-off rule also captures alerts written in French (decimal comma, sign after the amount)", () => {
    const nbsp = "\u00a0";
    expect(looksLikeAlert(`Un achat de 45,00${nbsp}$ a été porté à votre carte se terminant par 1234.`)).toBe(
      true,
    );
    expect(
      looksLikeAlert("Alerte : retrait de 1 234,56 $ de votre compte chèques.", "Alerte de compte"),
    ).toBe(true);
    expect(looksLikeAlert("Virement Interac : 20,00 $ déposés dans votre compte.")).toBe(true);
    expect(looksLikeAlert("Paiement de 12,50 € débité.")).toBe(true);
    // A price alone, or words alone, is not an alert (the same two-part rule as in English).
    expect(looksLikeAlert("Soldes : tout à 19,99 $ cette semaine !")).toBe(false);
    expect(looksLikeAlert("Votre compte : paiement et virement en ligne.")).toBe(false);
    expect(looksLikeAlert("Version 2,50 de l'application : achat intégré")).toBe(false);
  });

  it("pf_ ids are deterministic over the raw bytes' hash, not the Message-ID", async () => {
    const a = await quarantineId("raw1");
    expect(a).toMatch(/^pf_[0-9a-f]{24}$/);
    expect(await quarantineId("raw1")).toBe(a);
    expect(await quarantineId("raw2")).not.toBe(a);
    // The older Message-ID ids stay distinct from raw-hash ids (both are opaque pf_ strings).
    const legacy = await messageIdQuarantineId("<X@y>");
    expect(legacy).toMatch(/^pf_[0-9a-f]{24}$/);
    expect(await messageIdQuarantineId("<x@Y>")).toBe(legacy);
    expect(legacy).not.toBe(a);
  });
});

describe("budget target", () => {
  it("monthly amount, else annual / 12, case-insensitive, in cents", () => {
    expect(monthlyTarget({ categories: { Groceries: { monthly_amount: 400 } } }, "groceries")).toBe(40000);
    expect(monthlyTarget({ categories: { groceries: { target: 1200 } } }, "Groceries")).toBe(10000);
    expect(monthlyTarget({ categories: { groceries: { target: 1000 } } }, "Groceries")).toBe(8333);
    // Documents written since migration 0007 say they hold cents.
    const cents = { money: "cents", categories: { groceries: { target: 120000, monthly_amount: 10000 } } };
    expect(monthlyTarget(cents, "Groceries")).toBe(10000);
    expect(
      monthlyTarget(
        { ...cents, categories: { groceries: { target: 120000, monthly_amount: 0 } } },
        "Groceries",
      ),
    ).toBe(10000);
    expect(monthlyTarget({ categories: {} }, "Groceries")).toBeNull();
    expect(monthlyTarget(null, "Groceries")).toBeNull();
  });
});
