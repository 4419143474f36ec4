import { asCents } from "../../../../src/lib/money";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  INSTITUTIONS,
  type Institution,
  type ParsedFields,
  parseAlert,
  parseAmountCents,
  parseETransfer,
  parseWithInstitution,
} from "../../../../src/ingest/institutions";
import { TEMPLATES, TOKENS } from "./generators";

const PARSERS: [string, (body: string) => ParsedFields][] = [
  ...INSTITUTIONS.map((inst): [string, (body: string) => ParsedFields] => [inst.name, inst.parse]),
  ...INSTITUTIONS.map((inst): [string, (body: string) => ParsedFields] => [
    `parseWithInstitution(${inst.name})`,
    (body) => parseWithInstitution(inst, body),
  ]),
  ["parseETransfer", parseETransfer],
  ["parseAlert", (body) => parseAlert(null, body).fields],
  ["parseAlert via Interac", (body) => parseAlert("notify@payments.interac.ca", body).fields],
];

// Words that every recognizer needs; the noise below never contains them.
const TRIGGER = /purchase|withdrawal|sent|transfer|pre-?authori[sz]ed/i;
const noiseToken = fc.constantFrom(...TOKENS.filter((t) => !TRIGGER.test(t)));

const anyText = fc.oneof(
  fc.string({ maxLength: 400 }),
  fc.string({ unit: "grapheme", maxLength: 200 }),
  fc.string({ unit: "binary", maxLength: 200 }),
  fc
    .array(fc.constantFrom(...TOKENS, "purchase", "sent you", "transfer", "preauthorized"), { maxLength: 60 })
    .map((ts) => ts.join("")),
);
const noise = fc.oneof(
  fc.string({ maxLength: 400 }).filter((s) => !TRIGGER.test(s)),
  fc.string({ unit: "grapheme", maxLength: 200 }).filter((s) => !TRIGGER.test(s)),
  fc.array(noiseToken, { maxLength: 80 }).map((ts) => ts.join("")),
);
const padding = fc.string({ unit: fc.constantFrom(" ", "\t", "\n", "\r\n", "\u00a0"), maxLength: 6 });

describe.each(PARSERS)("%s", (_label, parse) => {
  it("never throws and keeps the contract shape; amount is finite or null", () => {
    fc.assert(
      fc.property(anyText, (body) => {
        const fields = parse(body);
        expect(Object.keys(fields).sort()).toEqual(["amount", "company", "name", "transaction_type"]);
        expect(fields.amount === null || Number.isFinite(fields.amount)).toBe(true);
      }),
    );
  });

  it("is idempotent", () => {
    fc.assert(
      fc.property(anyText, (body) => {
        expect(parse(body)).toEqual(parse(body));
      }),
    );
  });

  it("is unchanged by surrounding whitespace", () => {
    fc.assert(
      fc.property(anyText, padding, padding, (body, before, after) => {
        expect(parse(before + body + after)).toEqual(parse(body));
      }),
    );
  });

  it("invents no transaction from noise lacking the trigger words", () => {
    fc.assert(
      fc.property(noise, (body) => {
        const fields = parse(body);
        expect(fields.amount !== null && fields.transaction_type !== null).toBe(false);
      }),
    );
  });
});

describe("generated alert bodies", () => {
  const digits = (n: number) => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  const money = fc
    .record({
      dollars: fc.integer({ min: 0, max: 99_999_999 }),
      cents: fc.integer({ min: 0, max: 99 }),
      commas: fc.boolean(),
      withCents: fc.boolean(),
    })
    .map(({ dollars, cents, commas, withCents }) => ({
      text: `$${commas ? digits(dollars) : dollars}${withCents ? `.${String(cents).padStart(2, "0")}` : ""}`,
      cents: dollars * 100 + (withCents ? cents : 0),
    }));
  const BANK_WORD = /rbc|cibc|mbna|simplii|royal|financial|president/i;
  const word = fc
    .stringMatching(/^[A-Z0-9#*&'][A-Za-z0-9#*&'-]{0,8}(\.[a-z]{2,3})?$/)
    .filter((w) => !BANK_WORD.test(w));
  const merchant = fc.array(word, { minLength: 1, maxLength: 4 }).map((ws) => ws.join(" "));
  const upperWord = fc.stringMatching(/^[A-Z]{2,9}$/).filter((w) => !BANK_WORD.test(w));
  const person = fc.array(upperWord, { minLength: 1, maxLength: 3 }).map((ws) => ws.join(" "));
  // A given name like "Rbc" or "Royal" names a bank: kept out like the other generated words.
  const given = fc.stringMatching(/^[A-Z][a-z]{1,8}(-[A-Z][a-z]{1,8})?$/).filter((w) => !BANK_WORD.test(w));

  it.each(TEMPLATES)("$label round-trips amount, company, name and type", (template) => {
    fc.assert(
      fc.property(money, merchant, person, given, fc.boolean(), (amt, shop, who, name, crlf) => {
        const body = template.body({ amount: amt.text, merchant: shop, person: who, name });
        const { institution, fields } = parseAlert(null, crlf ? body.replace(/\n/g, "\r\n") : body);
        expect(institution).toBe(template.institution);
        expect(fields.transaction_type).toBe(template.type);
        // Exact integer cents, read from the printed digits.
        expect(fields.amount).toBe(amt.cents);
        expect(fields.company).toBe(template.company({ merchant: shop, person: who }));
        expect(fields.name).toBe(template.name({ name, person: who }));
      }),
    );
  });

  it("parseAmountCents round-trips exactly with and without thousands separators and cents", () => {
    fc.assert(
      fc.property(money, (amt) => {
        expect(parseAmountCents(amt.text)).toBe(amt.cents);
      }),
    );
  });
});

describe("parseAmountCents", () => {
  it.each([
    ["$1,687.00", 168700],
    ["$40", 4000],
    ["$0.01", 1],
    ["$0.1", 10],
    ["40 (CAD)", 4000],
    [" $999,999.99 ", 99999999],
  ])("%s -> %s", (text, value) => expect(parseAmountCents(text)).toBe(value));

  it.each(["", "$", "abc", "$1,2345", "$1.234", "1 234,56", "-$5", "$NaN", "9".repeat(400)])(
    "%s -> null",
    (text) => expect(parseAmountCents(text)).toBeNull(),
  );
});

describe("parseWithInstitution guards a faulty parser", () => {
  const faulty = (parse: Institution["parse"]): Institution => ({
    name: "X",
    domains: [],
    bodyMarkers: [],
    kinds: [],
    parse,
  });
  it("turns a throw into null fields", () => {
    expect(
      parseWithInstitution(
        faulty(() => {
          throw new Error("boom");
        }),
        "x",
      ),
    ).toEqual({ amount: null, company: null, name: null, transaction_type: null });
  });
  it("drops NaN amounts and unknown types", () => {
    const fields = parseWithInstitution(
      faulty(() => ({
        amount: asCents(Number.NaN),
        company: "",
        name: "A",
        transaction_type: "refund" as never,
      })),
      "x",
    );
    expect(fields).toEqual({ amount: null, company: null, name: "A", transaction_type: null });
  });
});
