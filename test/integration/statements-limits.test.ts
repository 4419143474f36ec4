// What a statement upload may cost: files a real bank never produces (400,000 CSV lines in 9.9 MB,
// 113,000 OFX transactions) are refused with a 413 in words, fast, before any parse; nothing is kept.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { call, expectEnvelope } from "../helpers/http";
import { contentBomb, operatorFlood, pageCycle, pageDag } from "../fixtures/hostile/pdfs";

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
  const before = await stored();
  const t0 = Date.now();
  const res = await call("/api/v1/statements/upload", { method: "POST", rawBody: fd, now: NOW });
  const ms = Date.now() - t0;
  const e = expectEnvelope(res, 413, "TOO_MANY_ROWS");
  expect(e.error).toMatch(what);
  expect(e.error).toMatch(/at most 10,000/);
  expect(e.details.max_rows).toBe(10_000);
  // ~0.4 s alone; reading the rows would take tens of seconds. Two seconds leaves room for a full
  // run (three vitest workers on two cores, with coverage).
  expect(ms, `refused in ${ms} ms`).toBeLessThan(2000);
  expect(await stored()).toBe(before);
}

describe("statement row caps", () => {
  it("a 9.9 MB CSV of 400,000 lines is a 413 in words before any row is read (under 2 s)", async () => {
    const line = "2024-01-02,COFFEE SHOP 1234,-3.75\n";
    const text = `Date,Description,Amount\n${line.repeat(400_000)}`.slice(0, 9_900_000);
    expect(text.length).toBeGreaterThan(9_000_000);
    await refusedFast(text, "huge.csv", /holds 2\d\d,\d{3} lines|holds \d{3},\d{3} lines/);
  });

  it("a 113,000-transaction OFX is a 413 in words before any row is read (under 2 s)", async () => {
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

// Issue 35 finding 4: the bounds hold for every encoding, checked before the expensive step.
describe("statement cost bounds for every encoding", () => {
  const uploadBytes = (bytes: Uint8Array, name: string) => {
    const fd = new FormData();
    fd.append("file", new File([bytes], name));
    return call("/api/v1/statements/upload", { method: "POST", rawBody: fd, now: NOW });
  };

  it("a QIF with CR-only line endings counts its rows like any other", async () => {
    await refusedFast(
      `!Type:Bank\r${"D01/02/2024\rT-3.75\rPCOFFEE\r^\r".repeat(20_000)}`,
      "cr.qif",
      /QIF file holds 20,000/,
    );
  });

  it("CAMT entries written <Ntry > are counted; unclosed ones are refused in one linear pass", async () => {
    const head = `<?xml version="1.0"?><Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.02"><BkToCstmrStmt><Stmt>`;
    await refusedFast(
      `${head}${"<Ntry >".repeat(150_000)}</Stmt></BkToCstmrStmt></Document>`,
      "open.xml",
      /CAMT file holds 150,000/,
    );
    // Under the row cap, but each open entry would make the lazy readers scan to the end of the file.
    const filler = "x".repeat(900);
    const text = `${head}${`<Ntry ><Amt>1.00</Amt>${filler}`.repeat(9_000)}</Stmt></BkToCstmrStmt></Document>`;
    const before = await stored();
    const t0 = Date.now();
    const res = await upload(text, "quadratic.xml");
    expect(Date.now() - t0).toBeLessThan(10_000);
    expect(expectEnvelope(res, 422, "VALIDATION_ERROR").error).toMatch(/not well-formed/);
    expect(await stored()).toBe(before);
  });

  it("a well-formed CAMT with entries written <Ntry > is still read", async () => {
    const ntry =
      '<Ntry ><Amt Ccy="EUR">3.75</Amt><CdtDbtInd>DBIT</CdtDbtInd><BookgDt><Dt>2024-01-02</Dt></BookgDt></Ntry>';
    const camt = `<?xml version="1.0"?><Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.02"><BkToCstmrStmt><Stmt>${ntry.repeat(3)}</Stmt></BkToCstmrStmt></Document>`;
    const res = await upload(camt, "ok.xml");
    expect(res.status, res.text).toBe(200);
    expect(res.body.metadata.transaction_count).toBe(3);
  });

  const pdfs: [string, () => Uint8Array, RegExp][] = [
    [
      "a content-stream bomb",
      () => contentBomb(10),
      /draws more than 250,000 operations|inflates to more than/,
    ],
    ["an operator flood under the byte cap", () => operatorFlood(400_000), /more than 250,000 operations/],
    ["a page tree that repeats one node (2^20 pages in 2 KB)", () => pageDag(20), /pages/],
    ["a page tree that loops", pageCycle, /loops back on itself/],
  ];
  for (const [name, make, words] of pdfs) {
    it(`${name} is a 413 in words before pdf.js reads it, and /health keeps answering`, async () => {
      const bytes = make();
      const before = await stored();
      const t0 = Date.now();
      const [res, health] = await Promise.all([uploadBytes(bytes, "s.pdf"), call("/api/v1/health")]);
      const ms = Date.now() - t0;
      expect(expectEnvelope(res, 413, "PAYLOAD_TOO_LARGE").error).toMatch(words);
      expect(health.status).toBe(200);
      // Before: pdf.js inflated and walked it (the 460 KB bomb: 21 s, 1.4 GB, /health blocked 16 s).
      expect(ms, `refused in ${ms} ms`).toBeLessThan(10_000);
      expect(await stored()).toBe(before);
    }, 60_000);
  }
});
