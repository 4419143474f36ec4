// The statement-file readers' decisions, one at a time: encoding, delimiter, date order, header words.
import { describe, expect, it } from "vitest";
import { csvRecords, csvTable, detectDelimiter } from "../../../../src/domains/statements/parsers/csv-table";
import { directionOf, roleScore } from "../../../../src/domains/statements/parsers/csv-words";
import { decodeBytes, detectEncoding } from "../../../../src/domains/statements/parsers/decode";
import { decideOrder, fileDate, realDate } from "../../../../src/domains/statements/parsers/file-dates";
import { parseOfx } from "../../../../src/domains/statements/parsers/ofx";
import { detectKind, parseFile } from "../../../../src/domains/statements/files";

const utf16 = (s: string, le: boolean, bom: boolean) => {
  const out: number[] = bom ? (le ? [0xff, 0xfe] : [0xfe, 0xff]) : [];
  for (const ch of s) {
    const c = ch.charCodeAt(0);
    out.push(...(le ? [c & 0xff, c >> 8] : [c >> 8, c & 0xff]));
  }
  return Uint8Array.from(out);
};

describe("encoding from the bytes", () => {
  const text = "Date;Opis;Kwota\n2024-03-02;Żabka Kraków;-7,99\n";
  it("UTF-16 LE and BE, with and without a BOM", () => {
    for (const le of [true, false])
      for (const bom of [true, false]) {
        const bytes = utf16(text, le, bom);
        expect(detectEncoding(bytes)).toBe(le ? "utf-16le" : "utf-16be");
        expect(decodeBytes(bytes).text).toBe(text);
      }
  });
  it("Windows-1250 against 1252 by the letters the bytes make", () => {
    // "Łódź, Kraków, Żabka ščř" in Windows-1250.
    const cz = Uint8Array.from([
      0xa3, 0xf3, 0x64, 0x9f, 0x2c, 0x20, 0x4b, 0x72, 0x61, 0x6b, 0xf3, 0x77, 0x2c, 0x20, 0xaf, 0x61, 0x62,
      0x6b, 0x61, 0x20, 0x9a, 0xe8, 0xf8,
    ]);
    expect(detectEncoding(cz)).toBe("windows-1250");
    expect(decodeBytes(cz).text).toBe("Łódź, Kraków, Żabka ščř");
    // "Café crème, Noël, Müller" in Windows-1252.
    const fr = Uint8Array.from([
      ...new TextEncoder().encode("Caf"),
      0xe9,
      0x20,
      0x63,
      0x72,
      0xe8,
      0x6d,
      0x65,
      0x2c,
      0x20,
      0x4e,
      0x6f,
      0xeb,
      0x6c,
      0x2c,
      0x20,
      0x4d,
      0xfc,
      0x6c,
      0x6c,
      0x65,
      0x72,
    ]);
    expect(detectEncoding(fr)).toBe("windows-1252");
    expect(decodeBytes(fr).text).toBe("Café crème, Noël, Müller");
  });
  it("UTF-8 bytes under a Latin-1 label read as UTF-8; a BOM is dropped", () => {
    expect(detectEncoding(new TextEncoder().encode("Crème"), "iso-8859-1")).toBe("utf-8");
    expect(decodeBytes(Uint8Array.from([0xef, 0xbb, 0xbf, 0x41])).text).toBe("A");
  });
});

describe("CSV table", () => {
  it("finds the delimiter that splits the lines evenly (commas inside amounts do not fool it)", () => {
    expect(detectDelimiter("Datum;Betrag\n01.02.2024;-1.234,56\n02.02.2024;5,00\n")).toBe(";");
    expect(detectDelimiter("Date\tAmount\n2024-01-02\t1,234.56\n")).toBe("\t");
    expect(detectDelimiter("Date|Amount|Text\n2024-01-02|1'234.56|x\n")).toBe("|");
  });
  it("reads quotes, doubled quotes and lone-CR line ends; skips a preamble above the header", () => {
    expect(csvRecords('a,"b ""c"", d"\re,f', ",")).toEqual([
      ["a", 'b "c", d'],
      ["e", "f"],
    ]);
    const t = csvTable("Account: 1234\nExported 2024-03-01\nDate,Payee,Amount\n2024-03-02,X,-1.00\n")!;
    expect(t.header).toEqual(["Date", "Payee", "Amount"]);
    expect(t.body).toHaveLength(1);
  });
  it("knows header words in seven languages and a debit/credit column's words", () => {
    const cases: [string, Parameters<typeof roleScore>[1]][] = [
      ["Libellé", "description"],
      ["Débit", "withdrawal"],
      ["Crédit", "deposit"],
      ["Buchungstag", "date"],
      ["Betrag (EUR)", "amount"],
      ["Fecha valor", "date"],
      ["Importe", "amount"],
      ["Data operazione", "date"],
      ["Descrizione", "description"],
      ["Bedrag", "amount"],
      ["Af Bij", "direction"],
      ["Descrição", "description"],
      ["Outflow", "withdrawal"],
      ["Inflow", "deposit"],
      ["Running Balance", "balance"],
      ["Saldo", "balance"],
    ];
    for (const [cell, role] of cases) expect(roleScore(cell, role), `${cell} → ${role}`).toBeGreaterThan(0);
    expect(["debit", "DR", "Af", "S"].map(directionOf)).toEqual(["out", "out", "out", "out"]);
    expect(["Credit", "CR", "Bij", "H"].map(directionOf)).toEqual(["in", "in", "in", "in"]);
  });
});

describe("dates in files", () => {
  it("a day that does not exist is no date", () => {
    expect(realDate(2012, 2, 31)).toBeNull();
    expect(realDate(2024, 2, 29)).toBe("2024-02-29");
    expect(fileDate("31/02/2024", "dmy")).toBeNull();
  });
  it("the order is decided once from all the file's dates", () => {
    expect(decideOrder(["03/04/2024", "13/04/2024"])).toBe("dmy");
    expect(decideOrder(["04/03/2024", "04/13/2024"])).toBe("mdy");
    // Every day is 12 or less: the order that keeps the rows in date order wins.
    expect(decideOrder(["02/03/2024", "11/03/2024", "05/04/2024"])).toBe("dmy");
    expect(decideOrder(["2024.03.02"])).toBe("ymd");
    expect(fileDate("5 mars 2024", "mdy")).toBe("2024-03-05");
    expect(fileDate("Mar 5, 2024", "dmy")).toBe("2024-03-05");
  });
});

describe("OFX rows refused in words", () => {
  it("an impossible day and a non-number leave their rows out; a part below a cent is read at the cent and said; the reasons kept", () => {
    const trn = (d: string, a: string) =>
      `<STMTTRN><TRNTYPE>DEBIT<DTPOSTED>${d}<TRNAMT>${a}<FITID>${d}${a}<NAME>X</STMTTRN>`;
    const out = parseOfx(
      `<OFX><STMTRS><BANKTRANLIST>${trn("20120231", "-1.00")}${trn("20120301", "$20")}${trn("20120302", "-2.345")}${trn("20120303", "-2.3400")}</BANKTRANLIST></STMTRS></OFX>`,
    );
    expect(out.ok).toBe(true);
    if (!out.ok) return;
    const [s] = out.statements;
    // Zeros past the cent read; a non-zero part below a cent is rounded half-even and said, never silently.
    expect(s!.rows.map((r) => [r.date, r.amount])).toEqual([
      ["2012-03-02", 234],
      ["2012-03-03", 234],
    ]);
    expect(s!.balance.warnings.join(" | ")).toMatch(
      /20120231 does not exist; left out.*\$20 is not a number; left out.*-2\.345 has a part smaller than a cent.*read as -2\.34 \(rounded to the cent\): check it/,
    );
  });
});

describe("OFX signs by the file's own transaction types", () => {
  const trn = (type: string, d: string, a: string) =>
    `<STMTTRN><TRNTYPE>${type}<DTPOSTED>${d}<TRNAMT>${a}<FITID>${d}${a}<NAME>${type} ROW</STMTTRN>`;
  const card = (rows: string) =>
    `<OFX><CREDITCARDMSGSRSV1><CCSTMTTRNRS><CCSTMTRS><BANKTRANLIST>${rows}</BANKTRANLIST></CCSTMTRS></CCSTMTTRNRS></CREDITCARDMSGSRSV1></OFX>`;
  const read = (text: string) => {
    const out = parseOfx(text);
    if (!out.ok) throw new Error(out.message);
    return out.statements[0]!;
  };

  it("a card export whose DEBIT purchases are positive is read by its types, and says so", () => {
    const s = read(
      card(
        trn("DEBIT", "20250301", "45.00") +
          trn("DEBIT", "20250302", "12.50") +
          trn("DEBIT", "20250303", "8.00") +
          trn("CREDIT", "20250310", "-200.00"),
      ),
    );
    expect(s.rows.map((r) => [r.type, r.amount])).toEqual([
      ["withdrawal", 4500],
      ["withdrawal", 1250],
      ["withdrawal", 800],
      ["deposit", 20000],
    ]);
    expect(s.balance.warnings.join(" ")).toMatch(/other way round from its own transaction types \(4 rows/);
  });

  it("a file whose types agree with its signs, or that types few rows, is read as signed", () => {
    const agree = read(card(trn("DEBIT", "20250301", "-45.00") + trn("CREDIT", "20250310", "200.00")));
    expect(agree.rows.map((r) => r.type)).toEqual(["withdrawal", "deposit"]);
    const one = read(card(trn("DEBIT", "20250301", "45.00") + trn("POS", "20250302", "-3.00")));
    expect(one.rows.map((r) => r.type)).toEqual(["deposit", "withdrawal"]);
    expect(agree.balance.warnings.join(" ") + one.balance.warnings.join(" ")).not.toMatch(/other way round/);
  });
});

describe("MT940 / MT942", () => {
  // Written here: two statements of one account (a year end between them) and one of another,
  // D/C/RD/RC marks, entry dates, structured (?20…/?32) and /NAME/-style and free :86: fields.
  const mt940 = [
    "{1:F01BANKDEFFAXXX0000000000}{2:O9401200240101BANKDEFFAXXX00000000002401011200N}{4:",
    ":20:STMT1",
    ":25:DE44500105175407324931",
    ":28C:1/1",
    ":60F:C231228EUR1000,00",
    ":61:2312291229D25,50NMSCNONREF//B1",
    ":86:106?00KARTENZAHLUNG?20SVWZ+Bäckerei Kranz Fil?21iale 4?32BAECKEREI KRANZ GMBH",
    ":61:2312300102C1200,NTRFREF2",
    ":86:/NAME/ACME PAYROLL LTD/REMI/Salary December/",
    ":62F:C231230EUR2174,50",
    "-}",
    "{4:",
    ":20:STMT2",
    ":25:DE44500105175407324931",
    ":28C:2/1",
    ":60F:C231230EUR2174,50",
    ":61:240102RD10,00NMSCREF3",
    ":86:Return of a direct debit",
    ":61:240103RC4,50NMSCREF4",
    ":86:Reversal of a credit",
    ":62F:C240103EUR2180,00",
    "-}",
    "{4:",
    ":20:STMT3",
    ":25:NL91ABNA0417164300",
    ":60F:D240101EUR50,00",
    ":61:240105C60,00NTRFNONREF",
    ":86:Transfer from savings",
    ":62F:C240105EUR10,00",
    "-}",
  ].join("\r\n");
  it("reads every statement and account, signs, dates and descriptions, and checks the balances", async () => {
    const bytes = new TextEncoder().encode(mt940);
    expect(detectKind(bytes, "statement.sta")).toBe("mt940");
    const parts = await parseFile("mt940", bytes, 2025);
    expect(parts.map((p) => p.account)).toEqual(["…4931", "…4300"]);
    const [a, b] = parts;
    expect(a!.rows.map((r) => [r.date, r.type, r.amount, r.description])).toEqual([
      ["2023-12-29", "withdrawal", 2550, "BAECKEREI KRANZ GMBH Bäckerei Kranz Filiale 4"],
      // The entry date (Jan 2) of a Dec 30 value date falls in the next year.
      ["2024-01-02", "deposit", 120000, "ACME PAYROLL LTD Salary December"],
      ["2024-01-02", "deposit", 1000, "Return of a direct debit"],
      ["2024-01-03", "withdrawal", 450, "Reversal of a credit"],
    ]);
    expect(a!.balance).toMatchObject({ ok: true, opening: 100000, closing: 218000 });
    expect(b!.rows).toMatchObject([{ date: "2024-01-05", type: "deposit", amount: 6000 }]);
    expect(b!.balance).toMatchObject({ ok: true, opening: -5000, closing: 1000 });
  });
  it("a closing balance that does not add up is said in words", async () => {
    const bad = new TextEncoder().encode(mt940.replace(":62F:C240105EUR10,00", ":62F:C240105EUR11,00"));
    const parts = await parseFile("mt940", bad, 2025);
    expect(parts[1]!.balance.ok).toBe(false);
    expect(parts[1]!.balance.warnings.join(" ")).toMatch(/\d/);
  });
});

describe("single-byte code pages told apart by the text they make", () => {
  const encode = (t: string, cp: string) => {
    const dec = new TextDecoder(cp);
    const map = new Map<string, number>();
    for (let b = 0; b < 256; b++) map.set(dec.decode(new Uint8Array([b])), b);
    return Uint8Array.from([...t].map((c) => map.get(c) ?? 63));
  };
  it.each([
    [
      "Datum provedení;Číslo účtu;Zaúčtovaná částka;Měna účtu\n27.05.2018;Převod;-12,50;CZK\n",
      "windows-1250",
    ],
    ["Könyvelés dátuma;Összeg;Közlemény\n2019.04.19.;-350;Vásárlás őszi\n", "windows-1250"],
    ["Date;Libellé;Montant\n01/02/2024;Chèque n° 12 à régler;-12,50\n", "windows-1252"],
    ["Data;Descrizione;Importo\n01/02/2024;Attività società più;-12,50\n", "windows-1252"],
    ["Dato;Tekst;Beløb\n01-02-2024;Køb hos Føtex;-12,50\n", "windows-1252"],
  ])("%s", (text, cp) => {
    expect(detectEncoding(encode(text, cp))).toBe(cp);
  });
  it("Hungarian trailing-dot dates and Polish month names", () => {
    expect(fileDate("2019.04.19.", "ymd")).toBe("2019-04-19");
    expect(fileDate("3 października 2024", "dmy")).toBe("2024-10-03");
  });
});
