// CSV, OFX (1.x SGML and 2.x XML) and QFX uploads: same review flow; FITIDs make re-imports idempotent.
import { env } from "cloudflare:test";
import { beforeEach, describe, expect, it } from "vitest";
import { countingD1 } from "../../bench/lib/d1-count";
import { call, expectEnvelope } from "../helpers/http";
import { expectEntryInBatch } from "../helpers/ledger-batch";
import { seedTx } from "../helpers/seed";

const NOW = "2025-04-02T12:00:00.000Z";

const upload = (bytes: Uint8Array, name: string, type = "application/octet-stream") => {
  const fd = new FormData();
  fd.append("file", new File([bytes], name, { type }));
  return call("/api/v1/statements/upload", { method: "POST", rawBody: fd, now: NOW });
};
const latin1 = (s: string) => Uint8Array.from(s, (c) => c.charCodeAt(0) & 0xff);
const utf8 = (s: string) => new TextEncoder().encode(s);

async function reset() {
  await env.DB.batch(
    ["statements", "statement_rows", "transactions", "activity_log"].map((t) =>
      env.DB.prepare(`DELETE FROM ${t}`),
    ),
  );
}

// OFX 1.02 as a Canadian bank's web banking exports it: SGML leaves, CRLF, Windows-1252.
const OFX1 = [
  "OFXHEADER:100",
  "DATA:OFXSGML",
  "VERSION:102",
  "SECURITY:NONE",
  "ENCODING:USASCII",
  "CHARSET:1252",
  "COMPRESSION:NONE",
  "OLDFILEUID:NONE",
  "NEWFILEUID:NONE",
  "",
  "<OFX><SIGNONMSGSRSV1><SONRS><STATUS><CODE>0<SEVERITY>INFO</STATUS><DTSERVER>20250402120000[-5:EST]",
  "<LANGUAGE>ENG<FI><ORG>Maple Bank<FID>0001</FI></SONRS></SIGNONMSGSRSV1>",
  "<BANKMSGSRSV1><STMTTRNRS><TRNUID>1<STATUS><CODE>0<SEVERITY>INFO</STATUS><STMTRS><CURDEF>CAD",
  "<BANKACCTFROM><BANKID>001<ACCTID>12345<ACCTTYPE>CHECKING</BANKACCTFROM>",
  "<BANKTRANLIST><DTSTART>20250301<DTEND>20250331",
  "<STMTTRN><TRNTYPE>DEBIT<DTPOSTED>20250303120000[-5:EST]<TRNAMT>-45.10<FITID>90001<NAME>CAF\xc9 &amp; BAKERY<MEMO>POS PURCHASE</STMTTRN>",
  "<STMTTRN><TRNTYPE>CREDIT<DTPOSTED>20250305<TRNAMT>1,500.00<FITID>90002<NAME>PAYROLL ACME</STMTTRN>",
  "<STMTTRN><TRNTYPE>DEBIT<DTPOSTED>20250305<TRNAMT>-45.10<FITID>90003<NAME>CAF\xc9 &amp; BAKERY<MEMO>POS PURCHASE</STMTTRN>",
  "</BANKTRANLIST><LEDGERBAL><BALAMT>2409.80<DTASOF>20250331</LEDGERBAL></STMTRS></STMTTRNRS></BANKMSGSRSV1></OFX>",
].join("\r\n");

const OFX2 = `<?xml version="1.0" encoding="UTF-8" standalone="no"?>
<?OFX OFXHEADER="200" VERSION="220" SECURITY="NONE" OLDFILEUID="NONE" NEWFILEUID="NONE"?>
<OFX><CREDITCARDMSGSRSV1><CCSTMTTRNRS><TRNUID>0</TRNUID><CCSTMTRS><CURDEF>USD</CURDEF>
<BANKTRANLIST><DTSTART>20250201000000.000</DTSTART><DTEND>20250228000000.000</DTEND>
<STMTTRN><TRNTYPE>DEBIT</TRNTYPE><DTPOSTED>20250210000000.000</DTPOSTED><TRNAMT>-12.5</TRNAMT><FITID>cc-1</FITID><NAME>Crème Brûlée &lt;Café&gt;</NAME></STMTTRN>
</BANKTRANLIST><LEDGERBAL><BALAMT>-12.50</BALAMT><DTASOF>20250228</DTASOF></LEDGERBAL></CCSTMTRS></CCSTMTTRNRS></CREDITCARDMSGSRSV1></OFX>`;

// QFX: Intuit's tags, a single transaction, LF endings.
const QFX = [
  "OFXHEADER:100",
  "DATA:OFXSGML",
  "VERSION:102",
  "SECURITY:NONE",
  "ENCODING:USASCII",
  "CHARSET:1252",
  "COMPRESSION:NONE",
  "OLDFILEUID:NONE",
  "NEWFILEUID:NONE",
  "",
  "<OFX><SIGNONMSGSRSV1><SONRS><STATUS><CODE>0<SEVERITY>INFO</STATUS><DTSERVER>20250402<LANGUAGE>ENG<INTU.BID>00024</SONRS></SIGNONMSGSRSV1>",
  "<BANKMSGSRSV1><STMTTRNRS><STMTRS><BANKACCTFROM><ACCTTYPE>SAVINGS</BANKACCTFROM><BANKTRANLIST><DTSTART>20250301<DTEND>20250331",
  "<STMTTRN><TRNTYPE>INT<DTPOSTED>20250331<TRNAMT>0.42<FITID>INT-0331<NAME>INTEREST PAID</STMTTRN>",
  "</BANKTRANLIST></STMTRS></STMTTRNRS></BANKMSGSRSV1></OFX>",
].join("\n");

describe("OFX and QFX", () => {
  beforeEach(reset);

  it("OFX 1.x SGML in Windows-1252: entities, signs, thousands, FITIDs, re-import offers nothing new", async () => {
    const res = await upload(latin1(OFX1), "march.ofx");
    expect(res.status, res.text).toBe(200);
    expect(res.body.metadata).toMatchObject({
      institution: "Maple Bank",
      account_type: "chequing",
      period_start: "2025-03-01",
      period_end: "2025-03-31",
      transaction_count: 3,
    });
    expect(res.body.transactions.map((t: any) => [t.date, t.type, t.amount, t.description])).toEqual([
      ["2025-03-03", "withdrawal", 45.1, "CAFÉ & BAKERY POS PURCHASE"],
      ["2025-03-05", "deposit", 1500, "PAYROLL ACME"],
      ["2025-03-05", "withdrawal", 45.1, "CAFÉ & BAKERY POS PURCHASE"],
    ]);
    expect(res.body.balance_check).toMatchObject({ ok: true, closing: 2409.8 });
    const imp = await call("/api/v1/statements/import", {
      method: "POST",
      body: { statement_id: res.body.statement_id },
      now: NOW,
    });
    expect(imp.body.imported).toBe(3);
    const keys = await env.DB.prepare("SELECT DateFileName FROM transactions ORDER BY DateFileName").all<{
      DateFileName: string;
    }>();
    for (const k of keys.results)
      expect(k.DateFileName).toMatch(/^2025\.03\.0[35]_00\.00_stmt_maple-bank_[0-9a-f]{8}\.ofx$/);
    const again = await upload(latin1(OFX1), "march-again.ofx");
    expect(again.body.summary).toMatchObject({ new_count: 0, previously_imported_count: 3 });
  });

  it("OFX 2.x XML (UTF-8, a credit card) and a one-transaction QFX", async () => {
    const a = await upload(utf8(OFX2), "card.ofx");
    expect(a.status, a.text).toBe(200);
    expect(a.body.metadata).toMatchObject({
      account_type: "credit_card",
      period_start: "2025-02-01",
      transaction_count: 1,
    });
    expect(a.body.transactions[0]).toMatchObject({
      date: "2025-02-10",
      type: "withdrawal",
      amount: 12.5,
      description: "Crème Brûlée <Café>",
    });
    const q = await upload(latin1(QFX), "savings.qfx");
    expect(q.status, q.text).toBe(200);
    expect(q.body.metadata).toMatchObject({
      institution: "Other",
      account_type: "savings",
      transaction_count: 1,
    });
    expect(q.body.transactions[0]).toMatchObject({
      date: "2025-03-31",
      type: "deposit",
      amount: 0.42,
      description: "INTEREST PAID",
    });
    const list = (await call("/api/v1/statements", { now: NOW })).body.statements
      .map((s: any) => s.file_kind)
      .sort();
    expect(list).toEqual(["ofx", "qfx"]);
    expectEnvelope(await upload(utf8("OFXHEADER:100\n\n<OFX></OFX>"), "empty.ofx"), 422, "VALIDATION_ERROR");
  });
});

describe("CSV", () => {
  beforeEach(reset);

  it("a signed amount column (quoted fields, a comma inside a description)", async () => {
    const csv = [
      "Account Type,Account Number,Transaction Date,Cheque Number,Description 1,Description 2,CAD$,USD$",
      'Chequing,05123-1234567,3/4/2025,,"Interac purchase - 1234","CORNER STORE, INC",-23.45,',
      'Chequing,05123-1234567,3/5/2025,,Payroll Deposit,ACME LTD,"1,500.00",',
    ].join("\r\n");
    const res = await upload(utf8(csv), "export.csv", "text/csv");
    expect(res.status, res.text).toBe(200);
    expect(res.body.transactions.map((t: any) => [t.date, t.type, t.amount, t.description])).toEqual([
      ["2025-03-04", "withdrawal", 23.45, "Interac purchase - 1234"],
      ["2025-03-05", "deposit", 1500, "Payroll Deposit"],
    ]);
    // No balance column: nothing to check against, said by a field (not only in words).
    expect(res.body.balance_check).toMatchObject({ ok: false, checked: false });
  });

  it("a file name's bidi and control characters never reach the stored name (invoice\u202Evsc.exe)", async () => {
    const csv = ["Date,Description,Amount", "2025-03-04,CORNER STORE,-23.45"].join("\r\n");
    const res = await upload(utf8(csv), "statement\u202Evsc.exe\u0007", "text/csv");
    expect(res.status, res.text).toBe(200);
    const detail = await call(`/api/v1/statements/${res.body.statement_id}`, { now: NOW });
    expect(detail.body.filename).toBe("statementvsc.exe");
  });

  it("debit and credit columns, day-first dates, newest first, with a balance that chains", async () => {
    const csv = [
      "Date;Description;Debit;Credit;Balance",
      "15/03/2025;GROCER;54.20;;945.80",
      "13/03/2025;SALARY;;500.00;1000.00",
      "02/03/2025;RENT;700.00;;500.00",
    ].join("\n");
    const res = await upload(utf8(csv), "bank.csv", "text/csv");
    expect(res.status, res.text).toBe(200);
    expect(res.body.transactions.map((t: any) => [t.date, t.type, t.amount, t.balance])).toEqual([
      ["2025-03-02", "withdrawal", 700, 500],
      ["2025-03-13", "deposit", 500, 1000],
      ["2025-03-15", "withdrawal", 54.2, 945.8],
    ]);
    expect(res.body.balance_check).toMatchObject({ ok: true, checked: true });
    // A balance that does not chain is checked and wrong.
    const off = await upload(utf8(csv.replace("945.80", "940.80")), "bank-off.csv", "text/csv");
    expect(off.body.balance_check).toMatchObject({ ok: false, checked: true });
    expectEnvelope(
      await upload(utf8("name,colour\nx,y\n"), "other.csv", "text/csv"),
      422,
      "VALIDATION_ERROR",
    );
  });

  it("the guessed mapping is confirmed once (sign convention corrected) and remembered for the next file", async () => {
    // A card export: purchases positive, payments negative.
    const csv = (rows: string[]) => ["Posted Date,Payee,Address,Amount", ...rows].join("\n");
    const first = await upload(
      utf8(csv(["2025-03-02,CORNER COFFEE,Town,4.50", "2025-03-05,PAYMENT THANK YOU,,-200.00"])),
      "card.csv",
      "text/csv",
    );
    expect(first.status, first.text).toBe(200);
    const id = first.body.statement_id;
    const d = (await call(`/api/v1/statements/${id}`, { now: NOW })).body;
    expect(d.csv_mapping).toMatchObject({
      header: ["Posted Date", "Payee", "Address", "Amount"],
      confirmed: false,
      mapping: { date: 0, description: 1, amount: 3, date_order: "ymd", negative_is: "withdrawal" },
    });
    expect(d.transactions.map((t: any) => t.type)).toEqual(["deposit", "withdrawal"]);
    const mapping = { ...d.csv_mapping.mapping, negative_is: "deposit" };
    const counter = countingD1(env.DB);
    const put = (body: unknown) =>
      call(`/api/v1/statements/${id}/csv-mapping`, {
        method: "PUT",
        body,
        now: NOW,
        env: { DB: counter.db },
      });
    expectEnvelope(
      await put({ institution: "Harbour Card", mapping: { ...mapping, amount: 9 } }),
      422,
      "VALIDATION_ERROR",
    );
    expectEnvelope(
      await put({ institution: "Harbour Card", mapping: { ...mapping, amount: null } }),
      422,
      "VALIDATION_ERROR",
    );
    counter.reset();
    const ok = await put({ institution: "Harbour Card", mapping });
    expect(ok.status, ok.text).toBe(200);
    expectEntryInBatch(counter, "statement_csv_mappings");
    expectEntryInBatch(counter, "statement_rows");
    expect(ok.body).toMatchObject({ institution: "Harbour Card", csv_mapping: { confirmed: true } });
    expect(ok.body.transactions.map((t: any) => [t.type, t.amount])).toEqual([
      ["withdrawal", 4.5],
      ["deposit", 200],
    ]);
    // The next export with the same header is read with the confirmed mapping.
    counter.reset();
    const fd = new FormData();
    fd.append("file", new File([utf8(csv(["2025-04-01,BOOKSHOP,,12.00"]))], "card-april.csv"));
    const next = await call("/api/v1/statements/upload", {
      method: "POST",
      rawBody: fd,
      now: NOW,
      env: { DB: counter.db },
    });
    expect(next.body.metadata.institution).toBe("Harbour Card");
    expect(next.body.transactions[0]).toMatchObject({ type: "withdrawal", amount: 12 });
    const ofx = await upload(latin1(OFX1), "march.ofx");
    expectEnvelope(
      await call(`/api/v1/statements/${ofx.body.statement_id}/csv-mapping`, {
        method: "PUT",
        body: { institution: "x", mapping },
        now: NOW,
      }),
      409,
      "NOT_CSV",
    );
  });
});

describe("a refused CSV header", () => {
  beforeEach(reset);

  it("is kept with no rows; confirming its columns reads it and matches the stored rows", async () => {
    const csv = "Col A,Col B,Col C\n2025-03-02,CORNER COFFEE,-4.50\n2025-03-05,SALARY,2000.00\n";
    const up = await upload(utf8(csv), "export.csv", "text/csv");
    expect(up.status, up.text).toBe(422);
    expect(up.body.code).toBe("CSV_MAPPING_NEEDED");
    const id = up.body.details.statement_id as string;
    // A stored row the confirmed file matches.
    await seedTx({
      DateFileName: "2025.03.05_09.00_s.eml",
      Amount: 2000,
      TransactionType: "deposit",
      Company: "Acme",
    });
    const guess = (await call(`/api/v1/statements/${id}`, { now: NOW })).body.csv_mapping.mapping;
    const mapping = { ...guess, date: 0, description: 1, amount: 2, withdrawal: null, deposit: null };
    const res = await call(`/api/v1/statements/${id}/csv-mapping`, {
      method: "PUT",
      body: { institution: "Plain Bank", mapping },
      now: NOW,
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body.transactions.map((t: any) => [t.date, t.type, t.amount, t.reconcile_tier])).toEqual([
      ["2025-03-02", "withdrawal", 4.5, "new"],
      ["2025-03-05", "deposit", 2000, "matched"],
    ]);
    // A reparse reads the header's stored mapping.
    const again = await call(`/api/v1/statements/${id}/reparse`, { method: "POST", now: NOW });
    expect(again.status, again.text).toBe(200);
    expect(again.body).toMatchObject({ institution: "Plain Bank", csv_mapping: { confirmed: true } });
    expect(again.body.transactions.map((t: any) => t.reconcile_tier)).toEqual(["new", "matched"]);
  });
});

describe("several accounts in one file", () => {
  beforeEach(reset);

  it("each account is its own statement: reparse reads its own account, delete keeps the other's file", async () => {
    const acct = (tag: string, id: string, rows: [string, string][]) =>
      `<${tag}><CURDEF>CAD<${tag === "CCSTMTRS" ? "CCACCTFROM" : "BANKACCTFROM"}><ACCTID>${id}</${tag === "CCSTMTRS" ? "CCACCTFROM" : "BANKACCTFROM"}><BANKTRANLIST>${rows
        .map(
          ([d, a], i) =>
            `<STMTTRN><TRNTYPE>OTHER<DTPOSTED>${d}<TRNAMT>${a}<FITID>${id}-${i}<NAME>ROW ${i}</STMTTRN>`,
        )
        .join("")}</BANKTRANLIST></${tag}>`;
    const ofx = `OFXHEADER:100\nDATA:OFXSGML\n\n<OFX><BANKMSGSRSV1><STMTTRNRS>${acct(
      "STMTRS",
      "111122223333",
      [
        ["20250301", "-10.00"],
        ["20250302", "20.00"],
      ],
    )}</STMTTRNRS></BANKMSGSRSV1><CREDITCARDMSGSRSV1><CCSTMTTRNRS>${acct("CCSTMTRS", "4500000000009999", [
      ["20250303", "-3.330"],
      ["20250304", "-3.333"],
    ])}</CCSTMTTRNRS></CREDITCARDMSGSRSV1></OFX>`;
    const res = await upload(utf8(ofx), "two.ofx");
    expect(res.status, res.text).toBe(200);
    expect(res.body.metadata).toMatchObject({
      account: "…3333",
      account_type: "chequing",
      transaction_count: 2,
    });
    expect(res.body.other_statements).toEqual([
      {
        statement_id: expect.stringMatching(/^stmt_/),
        account: "…9999",
        account_type: "credit_card",
        transaction_count: 2,
      },
    ]);
    const cardId = res.body.other_statements[0].statement_id;
    const card = await call(`/api/v1/statements/${cardId}/reparse`, { method: "POST", now: NOW });
    expect(card.status, card.text).toBe(200);
    expect(card.body.transactions.map((t: any) => [t.date, t.type, t.amount])).toEqual([
      ["2025-03-03", "withdrawal", 3.33],
      ["2025-03-04", "withdrawal", 3.33],
    ]);
    // Trailing zeros past the cent read; a non-zero part below a cent is read at the cent, in words.
    expect(card.body.balance_check.warnings.join(" ")).toMatch(
      /-3\.333 has a part smaller than a cent.*read as -3\.33 \(rounded to the cent\)/,
    );
    const del = await call(`/api/v1/statements/${res.body.statement_id}`, { method: "DELETE", now: NOW });
    expect(del.status, del.text).toBe(200);
    const again = await call(`/api/v1/statements/${cardId}/reparse`, { method: "POST", now: NOW });
    expect(again.status, again.text).toBe(200);
    expect(again.body.transactions).toHaveLength(2);
  });
});

describe("MT940 through the upload", () => {
  it("each account of the file is its own statement, its balances checked", async () => {
    const text = [
      ":20:A",
      ":25:DE44500105175407324931",
      ":60F:C250301EUR100,00",
      ":61:2503030303D12,50NMSCNONREF",
      ":86:/NAME/CORNER CAFE/REMI/Lunch/",
      ":62F:C250303EUR87,50",
      "-",
      ":20:B",
      ":25:NL91ABNA0417164300",
      ":60F:C250301EUR0,00",
      ":61:250305C40,NTRFNONREF",
      ":86:Refund",
      ":62F:C250305EUR40,00",
      "-",
    ].join("\n");
    const res = await upload(utf8(text), "export.sta");
    expect(res.status, res.text).toBe(200);
    expect(res.body.transactions).toMatchObject([
      { date: "2025-03-03", type: "withdrawal", amount: 12.5, description: "CORNER CAFE Lunch" },
    ]);
    expect(res.body.balance_check).toMatchObject({ ok: true });
    expect(res.body.other_statements).toHaveLength(1);
    const other = (
      await call(`/api/v1/statements/${res.body.other_statements[0].statement_id}`, { now: NOW })
    ).body;
    expect(other.transactions).toMatchObject([{ date: "2025-03-05", type: "deposit", amount: 40 }]);
  });
});
