import { readFileSync } from "node:fs";
import { it } from "vitest";
import { parseMime } from "../../../../src/ingest/mime";
import { deriveTemplate, readWithPattern } from "../../../../src/ingest/templates";
import { readByAnchors, anchorsOf } from "../../../../src/ingest/templates/anchors";
import { entryTokens } from "../../../../src/ingest/templates/match";
import { asCents } from "../../../../src/lib/money";

const W = "/work/shared/corpora/world2/alerts/";
const P = "/work/shared/corpora/project-peers/alerts/";
async function text(path: string) { return (await parseMime(readFileSync(path, "utf8"))).text; }
it("dbg", async () => {
  const cases: [string, string, number, string, string, string][] = [
    [P + "in-icici/refund-1.eml", P + "in-icici/refund-2.eml", 123456, "Sample Merchant", "2026-01-14", "2026-01-15"],
    [P + "sg-dbs/transfer-out-bank-fast-interbank.eml", P + "sg-dbs/transfer-out-paynow.eml", 190000, "Bugs Bunny A/C ending 0000", "2021-09-28", "2021-09-28"],
    [W + "csob-cz-ceb/01.eml", W + "csob-cz-ceb/03.eml", 150050, "TEST CUSTOMER", "2022-10-14", "2022-10-14"],
    [W + "tatra-bmail-debit/01.eml", W + "tatra-bmail-debit/03.eml", 220, "CCINT 1100/000000-261426464", "2015-01-12", "2015-01-12"],
    [P + "in-kotak/credit-card-1.eml", P + "in-kotak/credit-card-2.eml", 5800, "Sample Store", "2026-04-09", "2026-04-09"],
  ];
  for (const [a, b, amount, merchant, date, sent] of cases) {
    const body = await text(a);
    const d = deriveTemplate({ fromEmail: "x@bank.example", subject: "s", body, sentIso: sent, amount: asCents(amount), merchant, date });
    if (!d.ok) { console.log(a, d.reason); continue; }
    const p = d.template.pattern;
    const entries = p.lines.map(entryTokens);
    console.log(JSON.stringify(anchorsOf(entries)), p.labels);
    const other = await text(b);
    console.log(JSON.stringify(other.slice(0, 400)), p.date);
    console.log(b, JSON.stringify(readByAnchors(p, entries, other, sent)), JSON.stringify(readWithPattern(p, other, sent)));
  }
});
