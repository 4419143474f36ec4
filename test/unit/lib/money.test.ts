import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  detectNumberFormat,
  formatCents,
  parseCents,
  parseMoney,
  readMoney,
  asCents,
} from "../../../src/lib/money";

describe("readMoney: every printed form", () => {
  const cases: [string, number, { decimal?: "." | "," }?][] = [
    ["1,234.56", 123456],
    ["1.234,56", 123456],
    ["1 234,56", 123456],
    ["1\u00a0234,56", 123456],
    ["1\u202f234,56 €", 123456],
    ["1'234.56", 123456],
    ["1’234.56 CHF", 123456],
    ["12,5", 1250],
    ["-12.00", -1200],
    ["12.00-", -1200],
    ["(45.00)", -4500],
    ["$(45.00)", -4500],
    ["-$1,234.56", -123456],
    ["$-1,234.56", -123456],
    ["\u22125,00 €", -500],
    ["EUR -1.234,56", -123456],
    ["1234.56 CAD", 123456],
    ["US$ 7.10", 710],
    ["12.34 DR", -1234],
    ["12.34 CR", 1234],
    ["12.34CR", 1234],
    ["+3.5", 350],
    ["-00000000001500.0000", -150000],
    ["-30.000", -3000],
    ["1,23,456.78", 12345678],
    [".50", 50],
    ["1,234", 123400],
    ["1.234", 123400, { decimal: "," }],
    ["1,234", 123, { decimal: "," }],
    ["0", 0],
  ];
  for (const [text, cents, opts] of cases) {
    it(`${JSON.stringify(text)} → ${cents}`, () => expect(parseMoney(text, opts)).toBe(cents));
  }
  for (const text of ["", "abc", "1.2.3", "12,50", "(12.00", "1,2345.00", "--", "1.234,56.7"]) {
    it(`refuses ${JSON.stringify(text)} with a decimal point`, () => {
      expect(parseMoney(text, { decimal: "." })).toBeNull();
    });
  }
  it("rounds half-even and says so", () => {
    expect(readMoney("0.125")).toEqual({ ok: true, cents: 12, rounded: true });
    expect(readMoney("0.135")).toEqual({ ok: true, cents: 14, rounded: true });
    expect(readMoney("0.1251")).toEqual({ ok: true, cents: 13, rounded: true });
    expect(readMoney("-2.675")).toEqual({ ok: true, cents: -268, rounded: true });
    expect(readMoney("1.2300")).toEqual({ ok: true, cents: 123, rounded: false });
  });
  it("refuses a sub-cent part in words when exact", () => {
    const r = readMoney("10.005", { exact: true });
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.reason).toBe("sub_cent");
      expect(r.message).toMatch(/smaller than a cent/);
    }
    expect(parseMoney("10.000", { exact: true })).toBe(1000);
  });
  it("keeps parseCents strict (decimal point, no sub-cent)", () => {
    expect(parseCents("$1,234.56")).toBe(123456);
    expect(parseCents("1.005")).toBeNull();
    expect(parseCents("12,50")).toBeNull();
  });
});

describe("detectNumberFormat", () => {
  it("decides the decimal mark from the column", () => {
    expect(detectNumberFormat(["1.234", "12,50", "-3,00"])).toEqual({ decimal: ",", decided: true });
    expect(detectNumberFormat(["1,234", "12.50"])).toEqual({ decimal: ".", decided: true });
    expect(detectNumberFormat(["1.234.567", "8"])).toEqual({ decimal: ",", decided: true });
    expect(detectNumberFormat(["1 234,56 €"])).toEqual({ decimal: ",", decided: true });
    expect(detectNumberFormat(["1,234", "5"]).decided).toBe(false);
    expect(detectNumberFormat([]).decided).toBe(false);
  });
});

describe("formatCents", () => {
  it("prints with either mark", () => {
    expect(formatCents(asCents(123456))).toBe("1,234.56");
    expect(formatCents(asCents(-5))).toBe("-0.05");
    expect(formatCents(asCents(123456789), { decimal: ",", group: " " })).toBe("1 234 567,89");
    expect(formatCents(asCents(100000), { group: "" })).toBe("1000.00");
  });
});

describe("properties", () => {
  const cents = fc.integer({ min: -99_999_999_999, max: 99_999_999_999 });
  const style = fc.constantFrom(
    { decimal: "." as const, group: "," },
    { decimal: "." as const, group: "'" },
    { decimal: "," as const, group: "." },
    { decimal: "," as const, group: " " },
    { decimal: "," as const, group: "\u00a0" },
    { decimal: "," as const, group: "\u202f" },
    { decimal: "." as const, group: "" },
  );
  const wrap = fc.constantFrom(
    (t: string) => t,
    (t: string) => `${t} EUR`,
    (t: string) => `€ ${t}`,
    (t: string) => (t.startsWith("-") ? `(${t.slice(1)})` : t),
    (t: string) => (t.startsWith("-") ? `${t.slice(1)}-` : t),
    (t: string) => (t.startsWith("-") ? `${t.slice(1)} DR` : `${t} CR`),
  );
  it("format → parse is the identity, with the detected mark", () => {
    fc.assert(
      fc.property(fc.array(cents, { minLength: 1, maxLength: 6 }), style, wrap, (values, s, w) => {
        const texts = values.map((c) => w(formatCents(asCents(c), s)));
        const fmt = detectNumberFormat(texts);
        for (let i = 0; i < values.length; i++) {
          expect(parseMoney(texts[i]!, { decimal: fmt.decided ? fmt.decimal : s.decimal })).toBe(values[i]);
        }
      }),
    );
  });
  it("extra decimals round half-even to the nearest cent", () => {
    fc.assert(
      fc.property(cents, fc.integer({ min: 0, max: 9999 }), (c, sub) => {
        const text = `${formatCents(asCents(c), { group: "" })}${String(sub).padStart(4, "0")}`;
        const neg = c < 0;
        const abs = Math.abs(c);
        const up = sub > 5000 || (sub === 5000 && abs % 2 === 1);
        const want = (abs + (up ? 1 : 0)) * (neg ? -1 : 1);
        expect(parseMoney(text)).toBe(want === 0 ? 0 : want);
        expect(parseMoney(text, { exact: true })).toBe(sub === 0 ? c : null);
      }),
    );
  });
  it("never throws on any text", () => {
    fc.assert(fc.property(fc.string(), (t) => void readMoney(t)));
  });
});
