// What a statement upload may cost: files a real bank never produces (400,000 CSV lines in 9.9 MB,
// 113,000 OFX transactions) are refused with a 413 in words, fast, before any parse; nothing is kept.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { call, expectEnvelope } from "../helpers/http";

const NOW = "2026-01-15T12:00:00.000Z";
const form = (text: string, name: string) => {
  const fd = new FormData();
  fd.append("file", new File([new TextEncoder().encode(text)], name));
  return fd;
};
const upload = (text: string, name: string) =>
  call("/api/v1/statements/upload", { method: "POST", rawBody: form(text, name), now: NOW });
const stored = async () =>
  (await env.DB.prepare("SELECT COUNT(*) AS n FROM statements").first<{ n: number }>())!.n;

async function refusedFast(text: string, name: string, what: RegExp) {
  const fd = form(text, name);
  const t0 = Date.now();
  const res = await call("/api/v1/statements/upload", { method: "POST", rawBody: fd, now: NOW });
  const ms = Date.now() - t0;
  const e = expectEnvelope(res, 413, "TOO_MANY_ROWS");
  expect(e.error).toMatch(what);
  expect(e.error).toMatch(/at most 10,000/);
  expect(e.details.max_rows).toBe(10_000);
  expect(ms, `refused in ${ms} ms`).toBeLessThan(1000);
  expect(await stored()).toBe(0);
}

describe("statement row caps", () => {
  it("a 9.9 MB CSV of 400,000 lines is a 413 in words within a second", async () => {
    const line = "2024-01-02,COFFEE SHOP 1234,-3.75\n";
    const text = `Date,Description,Amount\n${line.repeat(400_000)}`.slice(0, 9_900_000);
    expect(text.length).toBeGreaterThan(9_000_000);
    await refusedFast(text, "huge.csv", /holds 2\d\d,\d{3} lines|holds \d{3},\d{3} lines/);
  });

  it("a 113,000-transaction OFX is a 413 in words within a second", async () => {
    const trn = "<STMTTRN><TRNTYPE>DEBIT<DTPOSTED>20240102<TRNAMT>-3.75<FITID>x<NAME>COFFEE</STMTTRN>\n";
    const text = `OFXHEADER:100\nDATA:OFXSGML\n\n<OFX><BANKMSGSRSV1><STMTTRNRS><STMTRS><BANKTRANLIST>${trn.repeat(113_000)}</BANKTRANLIST></STMTRS></STMTTRNRS></BANKMSGSRSV1></OFX>`;
    await refusedFast(text, "huge.ofx", /OFX file holds 113,000 transactions/);
  });

  it("QIF and CAMT files past the cap are refused the same way", async () => {
    await refusedFast(
      `!Type:Bank\n${"D01/02/2024\nT-3.75\nPCOFFEE\n^\n".repeat(12_000)}`,
      "huge.qif",
      /QIF file holds 12,000/,
    );
    const ntry =
      '<Ntry><Amt Ccy="EUR">3.75</Amt><CdtDbtInd>DBIT</CdtDbtInd><BookgDt><Dt>2024-01-02</Dt></BookgDt></Ntry>';
    const camt = `<?xml version="1.0"?><Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.02"><BkToCstmrStmt><Stmt>${ntry.repeat(10_100)}</Stmt></BkToCstmrStmt></Document>`;
    await refusedFast(camt, "huge.xml", /CAMT file holds 10,100/);
  });

  it("a year of a busy account (2,000 rows) is read", async () => {
    const rows = Array.from({ length: 2000 }, (_, i) => {
      const d = new Date(Date.UTC(2024, 0, 1) + Math.floor(i / 6) * 86_400_000).toISOString().slice(0, 10);
      return `${d},SHOP ${i},-${(i % 90) + 1}.${String(i % 100).padStart(2, "0")}`;
    });
    const res = await upload(`Date,Description,Amount\n${rows.join("\n")}\n`, "year.csv");
    expect(res.status, res.text).toBe(200);
    expect(res.body.metadata.transaction_count).toBe(2000);
  });
});
