import { asCents } from "../../../src/lib/money";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { amountsInText, validateExtraction } from "../../../src/ingest/extraction";

const BODY = "A purchase of $1,687.00 was made at GRANITE   INSURANCE #204 on your card ending 2210.";

describe("validateExtraction", () => {
  it("accepts an amount written with a sign and commas and a whitespace-collapsed company", () => {
    const r = validateExtraction(BODY, {
      amount: 1687,
      company: "granite insurance #204",
      transaction_type: "purchase",
    });
    expect(r).toEqual({
      ok: true,
      value: { amount_cents: 168700, company: "granite insurance #204", transaction_type: "purchase" },
    });
  });

  it("reads an amount the model copied as text exactly, in cents", () => {
    const r = validateExtraction(BODY, { amount: "$1,687.00", company: null, transaction_type: "purchase" });
    expect(r).toMatchObject({ ok: true, value: { amount_cents: 168700 } });
  });

  it("rejects hallucinated amounts and companies", () => {
    expect(validateExtraction(BODY, { amount: 1678, company: null, transaction_type: "purchase" }).ok).toBe(
      false,
    );
    expect(
      validateExtraction(BODY, { amount: 1687, company: "Granite Mutual", transaction_type: "purchase" }).ok,
    ).toBe(false);
    expect(validateExtraction(BODY, { amount: 16.87, company: null, transaction_type: "purchase" }).ok).toBe(
      false,
    );
  });

  it("rejects malformed arguments", () => {
    expect(validateExtraction(BODY, { amount: "lots", company: null, transaction_type: "purchase" }).ok).toBe(
      false,
    );
    expect(validateExtraction(BODY, { amount: 1687, company: null, transaction_type: "refund" }).ok).toBe(
      false,
    );
    expect(validateExtraction(BODY, { amount: -1687, company: null, transaction_type: "purchase" }).ok).toBe(
      false,
    );
    expect(
      validateExtraction(BODY, { amount: 1687.001, company: null, transaction_type: "purchase" }).ok,
    ).toBe(false);
    expect(validateExtraction(BODY, {}).ok).toBe(false);
  });

  it("a withdrawal without a company is valid", () => {
    expect(
      validateExtraction("Withdrawal of $40 from chequing", {
        amount: 40,
        company: null,
        transaction_type: "withdrawal",
      }).ok,
    ).toBe(true);
  });

  it("amountsInText skips malformed groupings and 3-decimal numbers", () => {
    const cents = amountsInText("$1,234.56 and 12.345 and 1,23 and 7");
    expect(cents.has(asCents(123456))).toBe(true);
    expect(cents.has(asCents(1235))).toBe(false);
    expect(cents.has(asCents(700))).toBe(true);
  });
});

const cents = fc.integer({ min: 1, max: 99_999_999 });
const styles = ["plain", "sign", "commas", "sign+commas"] as const;

function format(c: number, style: (typeof styles)[number]): string {
  const whole = Math.floor(c / 100);
  const frac = String(c % 100).padStart(2, "0");
  const grouped = whole.toLocaleString("en-US");
  const n = style.includes("commas") ? grouped : String(whole);
  return `${style.includes("sign") ? "$" : ""}${n}.${frac}`;
}

const word = fc.stringMatching(/^[A-Za-z][A-Za-z&' ]{0,20}[A-Za-z]$/);

describe("validateExtraction properties", () => {
  it("an amount and company that appear in the body always validate", () => {
    fc.assert(
      fc.property(
        cents,
        fc.constantFrom(...styles),
        word,
        fc.string({ maxLength: 40 }),
        (c, style, company, noise) => {
          const body = `${noise.replace(/\d/g, "")} spent ${format(c, style)} at ${company.toUpperCase()}\nthanks`;
          const r = validateExtraction(body, { amount: c / 100, company, transaction_type: "purchase" });
          return r.ok && r.value.amount_cents === c;
        },
      ),
      { numRuns: 300, seed: 42 },
    );
  });

  it("an amount absent from the body never validates", () => {
    fc.assert(
      fc.property(cents, cents, fc.constantFrom(...styles), (c, other, style) => {
        fc.pre(c !== other);
        const body = `A purchase of ${format(c, style)} at SHOP`;
        return !validateExtraction(body, {
          amount: other / 100,
          company: "SHOP",
          transaction_type: "purchase",
        }).ok;
      }),
      { numRuns: 300, seed: 7 },
    );
  });

  it("a company absent from the body never validates", () => {
    fc.assert(
      fc.property(word, word, (present, claimed) => {
        const collapse = (s: string) => s.replace(/\s+/g, " ").trim().toLowerCase();
        fc.pre(!collapse(`paid $5.00 at ${present}`).includes(collapse(claimed)));
        return !validateExtraction(`paid $5.00 at ${present}`, {
          amount: 5,
          company: claimed,
          transaction_type: "purchase",
        }).ok;
      }),
      { numRuns: 300, seed: 11 },
    );
  });
});
