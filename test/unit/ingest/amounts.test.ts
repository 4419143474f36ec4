import { describe, expect, it } from "vitest";
import { amountTextCents, findAmounts } from "../../../src/ingest/amounts";
import { MINOR_UNITS, SYMBOLS } from "../../../src/ingest/currencies";
import { looksLikeAlert } from "../../../src/ingest/quarantine";

const codes = [...MINOR_UNITS.keys()];

describe("amounts in every ISO 4217 code", () => {
  it("knows the active list (about 180 codes)", () => {
    expect(codes.length).toBeGreaterThan(175);
    expect(MINOR_UNITS.get("JPY")).toBe(0);
    expect(MINOR_UNITS.get("KWD")).toBe(3);
  });

  // Every code, before and after the number, bracketed or not, with or without a space or a sign.
  const shapes = (c: string) => [
    `${c} 1,234.56`,
    `${c}1,234.56`,
    `(${c}) 1,234.56`,
    `($${c}) 1,234.56`,
    `-${c} 1,234.56`,
    `1.234,56 ${c}`,
    `1 234,56 ${c}`,
    `1'234.56 (${c})`,
  ];
  it.each(codes)("%s", (code) => {
    for (const s of shapes(code)) {
      const found = findAmounts(`Paid ${s} at SHOP`);
      expect(found.length, s).toBe(1);
      expect(found[0]!.currency, s).toBe(code);
      // 1,234.56 reads as 1234.56 in every currency (two marks: the last one is decimal).
      expect(found[0]!.cents, s).toBe(123456);
    }
  });
});

describe("symbols and prefixes", () => {
  const named = SYMBOLS.filter(([, code]) => code !== null);
  it.each(named)("%s is %s", (sym, code) => {
    for (const s of [`${sym}12.34`, `${sym} 12.34`, `12,34 ${sym}`]) {
      const found = findAmounts(`charged ${s} today`);
      expect(
        found.map((f) => f.currency),
        s,
      ).toContain(code);
      expect(found.find((f) => f.currency === code)!.cents, s).toBe(1234);
    }
  });

  it("a bare $ or kr names no single currency", () => {
    expect(findAmounts("A $5.00 purchase")[0]).toMatchObject({ currency: null, mark: "$", cents: 500 });
    expect(findAmounts("Du har betalt 120,50 kr")[0]).toMatchObject({ currency: null, cents: 12050 });
  });

  it("a code beside a symbol wins ($40.00 (CAD))", () => {
    expect(findAmounts("for $40.00 (CAD)")[0]).toMatchObject({ currency: "CAD", cents: 4000 });
  });
});

describe("number rules", () => {
  it.each([
    ["12.47", "USD", 1247],
    ["12,47", "EUR", 1247],
    ["1,234", "USD", 123400],
    ["1.234", "EUR", 123400],
    ["1.234", "KWD", 123],
    ["2,760", "JPY", 276000],
    ["3’333.33", "CHF", 333333],
    ["1 234 567,89", "EUR", 123456789],
    ["1.234.567", "IDR", 123456700],
    ["18,000", null, 1800000],
    ["12.5", "USD", 1250],
  ])("%s %s → %i", (num, code, cents) => {
    expect(amountTextCents(num, code)).toBe(cents);
  });

  it("labelled numbers without a currency are amounts too", () => {
    expect(findAmounts("Valor Transacción: 18,000\n")[0]).toMatchObject({ currency: null, cents: 1800000 });
    expect(findAmounts("Un montant de 12.60 a été inscrit")[0]).toMatchObject({ cents: 1260 });
    expect(findAmounts("お引落金額：2,760円")[0]).toMatchObject({ currency: "JPY", cents: 276000 });
  });

  it("dates, times and card digits are not amounts", () => {
    expect(findAmounts("on 15/01/2026 at 14:30:00 using card XX4455 ending 1234")).toEqual([]);
  });

  it("stays fast on a hostile line", () => {
    const line = `${"1,".repeat(20_000)}USD ${"($".repeat(5000)} ${"9 ".repeat(10_000)}`;
    const t0 = performance.now();
    findAmounts(line);
    expect(performance.now() - t0).toBeLessThan(1500);
  });
});

describe("alert vocabulary in five languages", () => {
  it.each([
    ["en", "Your card ending 1234 was charged USD 12.47 at SHOP"],
    ["fr", "Un achat de 12,47 EUR a été débité de votre compte"],
    ["es", "Se registró una compra con su tarjeta por $ 109.90"],
    ["pt", "Compra aprovada no cartão final 1234 no valor de R$ 45,90"],
    ["de", "Kartenzahlung: Ihr Konto wurde mit 12,47 EUR belastet"],
  ])("%s", (_lang, text) => {
    expect(looksLikeAlert(text)).toBe(true);
  });

  it("a price in a newsletter is not an alert", () => {
    expect(looksLikeAlert("New arrivals from 19,99 EUR! Shop the sale today.")).toBe(false);
  });
});
