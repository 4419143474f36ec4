import { asCents, type Cents } from "../../../../src/lib/money";
import { describe, expect, it } from "vitest";
import {
  dateOrderOf,
  documentYear,
  findPeriod,
  parseRowDate,
  resolveYear,
} from "../../../../src/domains/statements/parsers/dates";
import { readAmount } from "../../../../src/domains/statements/parsers/layout";

describe("one date order per document", () => {
  it("a single unambiguous date settles the order of every ambiguous one", () => {
    expect(dateOrderOf(["03/04/2023", "05/06/2023", "13/06/2023"])).toBe("dmy");
    expect(dateOrderOf(["03/04/2023", "06/13/2023", "05/06"])).toBe("mdy");
    expect(dateOrderOf(["01.02.", "03.04."])).toBe("dmy");
    expect(dateOrderOf(["03/04/2023"])).toBeNull();
    expect(dateOrderOf(["03/04/2023"], "Période du 01/04/2023 au 30/04/2023")).toBe("dmy");
  });

  it("reads each numeric date in the document's order, dots always day-first", () => {
    expect(parseRowDate("03/04/2023", "dmy")).toEqual({ day: 3, month: 4, year: 2023 });
    expect(parseRowDate("03/04/2023", "mdy")).toEqual({ day: 4, month: 3, year: 2023 });
    // A date that cannot be read in the document's order is read the only way it can.
    expect(parseRowDate("13/04", "mdy")).toEqual({ day: 13, month: 4, year: null });
    expect(parseRowDate("19.01.")).toEqual({ day: 19, month: 1, year: null });
    expect(parseRowDate("07.12.2021")).toEqual({ day: 7, month: 12, year: 2021 });
    expect(parseRowDate("31/02/2023", "dmy")).toBeNull();
  });

  it("reads month names in several languages", () => {
    expect(parseRowDate("3 janv.")).toEqual({ day: 3, month: 1, year: null });
    expect(parseRowDate("12. Dezember 2021")).toEqual({ day: 12, month: 12, year: 2021 });
    expect(parseRowDate("5 de marzo de 2024")).toEqual({ day: 5, month: 3, year: 2024 });
    expect(parseRowDate("1er juillet 2023")).toEqual({ day: 1, month: 7, year: 2023 });
    expect(parseRowDate("14 mei")).toEqual({ day: 14, month: 5, year: null });
  });
});

describe("the statement period from its common wordings", () => {
  const cases: [string, string | null, string, string][] = [
    ["Statement period: 01/07/2023 - 31/07/2023", "dmy", "2023-07-01", "2023-07-31"],
    ["From Date: 01/07/2023 To Date: 31/07/2023", "dmy", "2023-07-01", "2023-07-31"],
    ["Account 1234 01-07-2023 to 31-07-2023 Page 1", "dmy", "2023-07-01", "2023-07-31"],
    ["for the period July 1, 2023 to July 31, 2023", null, "2023-07-01", "2023-07-31"],
    ["Période du 01/07/2023 au 31/07/2023", "dmy", "2023-07-01", "2023-07-31"],
    ["Kontoauszug vom 01.01.2020 bis 02.02.2020", "dmy", "2020-01-01", "2020-02-02"],
    ["Extracto del 1 de junio de 2024 al 30 de junio de 2024", null, "2024-06-01", "2024-06-30"],
    ["Statement from December 15, 2024 through January 14, 2025", null, "2024-12-15", "2025-01-14"],
    ["Feb 27 to Mar 30, 2025", null, "2025-02-27", "2025-03-30"],
    ["Statement dates 2023-12-05 - 2024-01-04", null, "2023-12-05", "2024-01-04"],
    // A card cycle given as two labelled dates: from the day after the previous statement.
    [
      "STATEMENT DATE: August 15, 2014 1 OF 3 PREVIOUS STATEMENT: July 14, 2014",
      null,
      "2014-07-15",
      "2014-08-15",
    ],
    ["Previous statement date 30/12/2023 Closing date 29/01/2024", "dmy", "2023-12-31", "2024-01-29"],
  ];
  for (const [text, order, start, end] of cases) {
    it(text, () => {
      expect(findPeriod(`Some Bank plc ${text} Page 1 of 3`, order as "dmy" | null)).toEqual({ start, end });
    });
  }

  it("a lone date or a reversed pair is no period", () => {
    expect(findPeriod("Statement date: 31/07/2023", "dmy")).toBeNull();
    expect(findPeriod("31/07/2023 to 01/07/2023", "dmy")).toBeNull();
  });

  it("December rows of a January statement belong to the year before", () => {
    const p = findPeriod("Statement period 15/12/2023 to 14/01/2024", "dmy")!;
    expect(resolveYear({ day: 28, month: 12, year: null }, p, 2026)).toBe("2023-12-28");
    expect(resolveYear({ day: 3, month: 1, year: null }, p, 2026)).toBe("2024-01-03");
  });

  it("the year a statement prints most often stands in for a missing period", () => {
    expect(documentYear("Statement date 31.07.2023 printed 01.08.2023 for 2022-01-01", "dmy")).toBe(2023);
    expect(documentYear("no dates here", null)).toBeNull();
  });
});

describe("amounts in the document's number format", () => {
  it("reads decimal commas, space and apostrophe thousands, signs and marks", () => {
    expect(readAmount("1 234,56", ",")).toEqual({ cents: 123456, negative: false, truncated: false });
    expect(readAmount("1'234.56")).toEqual({ cents: 123456, negative: false, truncated: false });
    expect(readAmount("-205,90")).toEqual({ cents: 20590, negative: true, truncated: false });
    expect(readAmount("+ 1.830,00", ",")).toEqual({ cents: 183000, negative: false, truncated: false });
    expect(readAmount("-683,68 Euro", ",")?.cents).toBe(68368);
    expect(readAmount("12.50 DR")?.negative).toBe(true);
    expect(readAmount("4,882.2")).toEqual({ cents: 488220, negative: false, truncated: true });
    expect(readAmount("2021")).toBeNull();
    expect(readAmount("1 von 2")).toBeNull();
  });
});

describe("the balance check says by how much it is off", () => {
  it("names the difference between the printed closing balance and the rows", async () => {
    const { checkBalances } = await import("../../../../src/domains/statements/parsers/balance");
    const row = (withdrawal: Cents | null, deposit: Cents | null) => ({
      date: { day: 1, month: 1, year: 2025 },
      description: "x",
      withdrawal,
      deposit,
      balance: null,
    });
    const { check } = checkBalances(
      [row(asCents(1000), null), row(null, asCents(250))],
      { cents: asCents(10_000), truncated: false },
      { cents: asCents(9_000), truncated: false },
      { in: null, out: null },
    );
    expect(check.ok).toBe(false);
    expect(check.warnings).toContain(
      "The closing balance 90.00 does not match the rows (computed 92.50, a difference of 2.50)",
    );
  });
});
