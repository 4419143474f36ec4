import { asCents } from "../../../../src/lib/money";
import { describe, expect, it } from "vitest";
import { deriveTemplate, type LearnInput, readWithPattern } from "../../../../src/domains/templates/engine";

const base = (over: Partial<LearnInput>): LearnInput => ({
  fromEmail: "Maple CU <alerts@maplecu.example>",
  subject: "Card purchase alert",
  body: "",
  sentIso: "2026-10-12",
  amount: asCents(0),
  merchant: "",
  date: "2026-10-12",
  ...over,
});

function learn(over: Partial<LearnInput>) {
  const r = deriveTemplate(base(over));
  if (!r.ok) throw new Error(r.reason);
  return r.template;
}

describe("deriveTemplate", () => {
  it("a legal form's period is the merchant's, the bank's full stop after it is not (`s.r.o..`)", () => {
    const body = (m: string, a: string) =>
      `Dobrý den,\nkartou 5.9.2026 14:05 jste zaplatili ${a} CZK u obchodníka ${m}.\nZůstatek na účtu: 48 120,00 CZK`;
    const t = learn({
      body: body("Kavárna Na Rohu s.r.o.", "1 234,50"),
      amount: asCents(123450),
      merchant: "Kavárna Na Rohu s.r.o.",
      date: "2026-09-05",
    });
    expect(t.merchant).toBe("Kavárna Na Rohu s.r.o.");
    expect(t.pattern.labels).not.toContain("kartou 5.9.2026 14:");
    for (const [printed, read] of [
      ["Pekárna Kolář a.s.", "Pekárna Kolář a.s."],
      ["Pekárna Kolář", "Pekárna Kolář"],
    ]) {
      const next = readWithPattern(t.pattern, body(printed!, "86,00"), "2026-10-12");
      expect(next).toMatchObject({ ok: true, values: { amount: 8600, merchant: read } });
    }
  });

  it("reads a one-line alert back, then the next one exactly", () => {
    const t = learn({
      body: "Hi Sam,\nYou spent $1,234.56 at TIM HORTONS #42 on Oct 12, 2026 at 3:45 PM.\nCard ending 4242.",
      amount: asCents(123456),
      merchant: "Tim Hortons #42",
    });
    expect(t.senderDomain).toBe("maplecu.example");
    expect(t.subjectWords).toEqual(["card", "purchase", "alert"]);
    expect(t.example).toBe("You spent $[amount] at [merchant] on [date] at [time].");
    expect(t.example).not.toContain("Sam");
    const next = readWithPattern(
      t.pattern,
      "Hi Sam,\nYou spent $7.05 at BLUE BOTTLE on Nov 1, 2026 at 9:02 AM.\nCard ending 4242.",
      "2026-11-01",
    );
    expect(next).toEqual({
      ok: true,
      values: { amount: 705, merchant: "BLUE BOTTLE", date: "2026-11-01", time: "09:02" },
    });
  });

  it("reads amounts after the merchant, comma decimals and a currency code", () => {
    const t = learn({
      body: "Achat chez EPICERIE DU COIN : 1 234,56 $ le 2026-10-12",
      amount: asCents(123456),
      merchant: "EPICERIE DU COIN",
    });
    const next = readWithPattern(t.pattern, "Achat chez BOULANGERIE : 8,10 $ le 2026-10-13", "2026-10-13");
    expect(next).toMatchObject({
      ok: true,
      values: { amount: 810, merchant: "BOULANGERIE", date: "2026-10-13" },
    });
    // Issue 37: the currency beside the amount is a value, not an anchor (the journal's check flags it).
    expect(
      readWithPattern(t.pattern, "Achat chez BOULANGERIE : 8,10 USD le 2026-10-13", "2026-10-13"),
    ).toMatchObject({ ok: true, values: { amount: 810, merchant: "BOULANGERIE", date: "2026-10-13" } });
  });

  it("anchors a value alone on its line by the line above (HTML table cells)", () => {
    const t = learn({
      body: "Transaction details\nMerchant\nCORNER BAKERY\nAmount\n23.75 CAD\nDate\n12/10/2026",
      amount: asCents(2375),
      merchant: "Corner Bakery",
    });
    const next = readWithPattern(
      t.pattern,
      "Transaction details\nMerchant\nBIG BOX\nAmount\n1,023.00 CAD\nDate\n03/11/2026",
      "2026-11-03",
    );
    expect(next).toMatchObject({
      ok: true,
      values: { amount: 102300, merchant: "BIG BOX", date: "2026-11-03" },
    });
  });

  it("uses the sent day when no date is printed, and refuses a typed date it cannot find", () => {
    expect(
      learn({ body: "Purchase: $5.00 at KIOSK", amount: asCents(500), merchant: "KIOSK" }).pattern.date,
    ).toBeNull();
    const r = deriveTemplate(
      base({ body: "Purchase: $5.00 at KIOSK", amount: asCents(500), merchant: "KIOSK", date: "2026-10-01" }),
    );
    expect(r).toEqual({
      ok: false,
      reason: "the date you typed does not appear in the email and is not the day it was sent",
    });
  });

  it("refuses values that are not in the email, in words", () => {
    const body = "Purchase: $5.00 at KIOSK";
    expect(deriveTemplate(base({ body, amount: asCents(600), merchant: "KIOSK" }))).toEqual({
      ok: false,
      reason: "the amount you typed (6.00) does not appear in the email",
    });
    expect(deriveTemplate(base({ body, amount: asCents(500), merchant: "KIOSKS" }))).toEqual({
      ok: false,
      reason: "the merchant you typed does not appear in the email",
    });
  });

  it("never reads an ambiguous line: a merchant line repeated is no match", () => {
    const t = learn({ body: "Purchase: $5.00 at KIOSK", amount: asCents(500), merchant: "KIOSK" });
    expect(readWithPattern(t.pattern, "Purchase: $5.00 at A\nPurchase: $6.00 at B", "2026-10-12").ok).toBe(
      false,
    );
    expect(readWithPattern(t.pattern, "Purchase of $5.00 at KIOSK", "2026-10-12").ok).toBe(false);
  });
});

describe("printed dates", () => {
  const cases: [string, string][] = [
    ["2026/10/12", "2026-10-12"],
    ["October 12, 2026", "2026-10-12"],
    ["12 octobre 2026", "2026-10-12"],
    ["10/12/2026", "2026-10-12"],
    ["Oct. 12", "2026-10-12"],
  ];
  for (const [printed, typed] of cases) {
    it(`learns "${printed}" and reads the next date in that format`, () => {
      const t = learn({
        body: `Purchase of $5.00 at KIOSK on ${printed}`,
        amount: asCents(500),
        merchant: "KIOSK",
        date: typed,
      });
      expect(t.pattern.date).not.toBeNull();
      const next = printed.replace("12", "3");
      const r = readWithPattern(t.pattern, `Purchase of $6.00 at SHOP on ${next}`, "2026-10-20");
      expect(r).toMatchObject({ ok: true, values: { amount: 600, merchant: "SHOP", date: "2026-10-03" } });
    });
  }

  it("a yearless date after the sent day belongs to the year before", () => {
    const t = learn({
      body: "Purchase of $5.00 at KIOSK on Oct 12",
      amount: asCents(500),
      merchant: "KIOSK",
    });
    const r = readWithPattern(t.pattern, "Purchase of $6.00 at SHOP on Dec 30", "2027-01-02");
    expect(r).toMatchObject({ ok: true, values: { date: "2026-12-30" } });
  });

  it("month names in the subject are not fixed words; a bare amount line is anchored by the one above", () => {
    const t = learn({
      subject: "Purchase on Oct 12",
      body: "Merchant: KIOSK\nAmount\n$5.00\nBalance\n$900.00",
      amount: asCents(500),
      merchant: "KIOSK",
    });
    expect(t.subjectWords).toEqual(["purchase", "on"]);
    expect(t.example).toBe("Merchant: [merchant]\nAmount\n$[amount]");
  });
});

describe("merchant found in fixed text", () => {
  it("prefers the occurrence in the typed case over fixed words that spell the same", () => {
    const t = learn({ body: "You spent $0.01 at AT on Oct 12, 2026", amount: asCents(1), merchant: "AT" });
    expect(t.example).toBe("You spent $[amount] at [merchant] on [date]");
  });

  it("refuses when only other-case occurrences exist and there are several", () => {
    const r = deriveTemplate(
      base({ body: "You spent $0.01 at AT on Oct 12, 2026", amount: asCents(1), merchant: "At" }),
    );
    expect(r).toEqual({
      ok: false,
      reason: "the merchant you typed appears several times in the email, none in the case you typed it",
    });
  });
});

describe("a value printed in several places", () => {
  it("an amount equal to another figure in the example is never read from the wrong place", () => {
    const t = learn({
      body: "Purchase at SHOP for 9.99 USD (9.99 CAD).",
      amount: asCents(999),
      merchant: "SHOP",
    });
    expect(t.example).toBe("Purchase at [merchant] for [amount] USD ([amount] CAD).");
    expect(
      readWithPattern(t.pattern, "Purchase at SHOP for 5.00 USD (6.80 CAD).", "2026-10-12"),
    ).toMatchObject({
      ok: false,
      reason: "the amount is printed twice with different values",
    });
  });

  it("a repeated amount or merchant reads when the copies agree", () => {
    const t = learn({
      body: "Merchant: KIOSK\nYou spent $5.00 at KIOSK.\nTotal: $5.00",
      amount: asCents(500),
      merchant: "KIOSK",
    });
    expect(
      readWithPattern(t.pattern, "Merchant: CAFE\nYou spent $7.00 at CAFE.\nTotal: $7.00", "2026-10-12"),
    ).toMatchObject({
      ok: true,
      values: { amount: 700, merchant: "CAFE" },
    });
  });
});

describe("formats of other countries (issue 27)", () => {
  it("thousands marked by ’ are read though the example printed none", () => {
    const t = learn({
      body: "Un montant de 12.60 a été inscrit au crédit du compte abc. Solde: CHF 3’333.33.",
      amount: asCents(1260),
      merchant: "abc",
    });
    const next = readWithPattern(
      t.pattern,
      "Un montant de 6’940.50 a été inscrit au crédit du compte abc. Solde: CHF 79.33.",
      "2026-10-13",
    );
    // The name ends at the word closed by punctuation, not at "Solde".
    expect(next).toMatchObject({ ok: true, values: { amount: 694050, merchant: "abc" } });
  });

  it("a day/month order the example cannot tell is read nearest before the sent day", () => {
    const t = learn({
      body: "INR 12,345.00 was received on 05/05/2026 and credited to your card XX9999.",
      amount: asCents(1234500),
      merchant: "card XX9999",
      date: "2026-05-05",
      sentIso: "2026-05-05",
    });
    expect(t.pattern.date).toBe("either_slash");
    const read = (d: string, sent: string) =>
      readWithPattern(t.pattern, `INR 1.00 was received on ${d} and credited to your card XX1.`, sent);
    expect(read("12/04/2026", "2026-04-12")).toMatchObject({ ok: true, values: { date: "2026-04-12" } });
    expect(read("04/12/2026", "2026-04-13")).toMatchObject({ ok: true, values: { date: "2026-04-12" } });
    // An unambiguous example fixes the order for good.
    const fixed = learn({
      body: "INR 5.00 was received on 15/01/2026 and credited to your card XX9999.",
      amount: asCents(500),
      merchant: "card XX9999",
      date: "2026-01-15",
    });
    expect(fixed.pattern.date).toBe("dmy_slash");
  });

  it("Spanish month names with slashes, with and without the year", () => {
    const t = learn({
      body: "Operacion:\nCOMPRA EN TIENDA\nFecha:\n10/Feb 08:14:03 hrs.\nImporte:\n$ 63.37 MN",
      amount: asCents(6337),
      merchant: "Compra en tienda",
      date: "2020-02-10",
      sentIso: "2020-02-10",
    });
    const next = readWithPattern(
      t.pattern,
      "Operacion:\nPAGO DE SERVICIOS\nFecha:\n14/Ago 20:15:31 hrs.\nImporte:\n$ 337.88 MN",
      "2020-08-15",
    );
    expect(next).toMatchObject({
      ok: true,
      values: { amount: 33788, merchant: "PAGO DE SERVICIOS", date: "2020-08-14", time: "20:15" },
    });
  });

  it("a merchant the bank's line width broke is learned and read from the text unwrapped", () => {
    const t = learn({
      body: "Estimado:\n\nSe registró una compra en\nAMZN\nMktp US zn com bill, por $ 109.90.\n\nCordialmente,",
      amount: asCents(10990),
      merchant: "AMZN Mktp US zn com bill",
    });
    expect(t.pattern.unwrap).toBe(true);
    for (const [body, merchant, amount] of [
      [
        "Estimado:\n\nSe registró una compra en SPORTS BASEMENT, por $ 103.21.\nEn caso de dudas llame.",
        "SPORTS BASEMENT",
        10321,
      ],
      [
        "Estimado:\n\nSe registró una compra en AMZN\nMktp US zn com bill, por $ 9.90.\n\nCordialmente,",
        "AMZN Mktp US zn com bill",
        990,
      ],
    ] as const) {
      expect(readWithPattern(t.pattern, body, "2026-10-12")).toMatchObject({
        ok: true,
        values: { merchant, amount },
      });
    }
    // Printed on one line, nothing is unwrapped.
    const plain = learn({
      body: "Se registró una compra en TIENDA, por $ 5.00.",
      amount: asCents(500),
      merchant: "Tienda",
    });
    expect(plain.pattern.unwrap).toBeUndefined();
  });
});

describe("a merchant's place word that changes (issue 37)", () => {
  const body = (a: string, word: string, m: string, d: string) =>
    `Transaction Successful. INR ${a} spent ${word} ${m} on ${d} at 09:01:05 using your Card x5544.`;
  const t = learn({
    body: body("58", "at", "Sample Store", "09/04/26"),
    amount: asCents(5800),
    merchant: "Sample Store",
    date: "2026-04-09",
  });
  it("reads `spent on X` after `spent at X` was learned, and the value held to its neighbour", () => {
    expect(readWithPattern(t.pattern, body("250", "on", "Swiggy", "20/03/26"), "2026-04-07")).toMatchObject({
      ok: true,
      values: { amount: 25000, merchant: "Swiggy", date: "2026-03-20" },
    });
    const kotak = learn({
      body: "Your transaction of Rs.711.00 on Blinkit using Kotak Bank Debit Card XX4455 on 11/04/2026 15:13:27 has been processed.",
      amount: asCents(71100),
      merchant: "Blinkit",
      date: "2026-04-11",
      sentIso: "2026-04-11",
    });
    const at =
      "Your transaction of Rs.2000.00 at SAMPLE STORE using Kotak Bank Debit Card XX1234 on 15/01/2026 10:30:00 has been processed.";
    expect(readWithPattern(kotak.pattern, at, "2026-04-12")).toMatchObject({
      ok: true,
      values: { amount: 200000, merchant: "SAMPLE STORE", date: "2026-01-15" },
    });
  });
  it("never a word of direction: `spent to X` reads nothing", () => {
    expect(readWithPattern(t.pattern, body("250", "to", "Swiggy", "20/03/26"), "2026-04-07").ok).toBe(false);
  });
});
