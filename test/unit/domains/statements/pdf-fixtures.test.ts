import { describe, expect, it } from "vitest";
import { parseStatementText } from "../../../../src/domains/statements/parsers";
import { readPdfText } from "../../../../src/domains/statements/parsers/pdf-text";
import { readTidings } from "../../../../scripts/lib/corpora.mjs";
import {
  referencePdf,
  referenceStatementExpectation,
  referenceStatementNames,
  TIDINGS_ABSENT,
} from "../../../fixtures/tidings";

// Tidings' statement PDFs (MIT) from ../shared/reference/tidings (never committed here).
const files = readTidings();
if (!files) console.warn(TIDINGS_ABSENT);

interface Expected {
  metadata: {
    institution: string;
    account_type: string;
    period_start: string;
    period_end: string;
    transaction_count: number;
  };
  transactions: { date: string; type: string; amount: number; balance: number; description: string }[];
  totals: { funds_out: number; funds_in: number };
}

describe.skipIf(!files)(
  "reference statement PDFs (../shared/reference/tidings) parse to their expected rows",
  () => {
    for (const name of referenceStatementNames(files)) {
      it(name, async () => {
        const want = referenceStatementExpectation<Expected>(files, name);
        const out = parseStatementText(await readPdfText(referencePdf(files, name)), 2025);
        if (!out.ok) throw new Error(out.message);
        const s = out.statement;
        expect(s.balance.warnings).toEqual([]);
        expect(s.balance.ok).toBe(true);
        expect({
          institution: s.institution,
          account_type: s.account_type,
          period_start: s.period_start,
          period_end: s.period_end,
          transaction_count: s.rows.length,
        }).toEqual(want.metadata);
        expect(
          s.rows.map((r) => ({
            date: r.date,
            type: r.type,
            amount: r.amount / 100,
            balance: r.balance! / 100,
            description: r.description,
          })),
        ).toEqual(want.transactions);
        const sum = (t: string) => s.rows.filter((r) => r.type === t).reduce((a, r) => a + r.amount, 0) / 100;
        expect({ funds_out: sum("withdrawal"), funds_in: sum("deposit") }).toEqual(want.totals);
      });
    }
  },
);

const own = import.meta.glob("../../../fixtures/statements/own/*.pdf", {
  query: "?inline",
  import: "default",
  eager: true,
}) as Record<string, string>;
const ownExpected = import.meta.glob("../../../fixtures/statements/own/*.json", {
  import: "default",
  eager: true,
}) as Record<
  string,
  {
    period_start: string;
    period_end: string;
    transactions: { date: string; type: string; amount: number; balance: number; description: string }[];
  }
>;

describe("our own statements printed from HTML by Chromium (multi-page, repeated headers, wrapped rows)", () => {
  for (const [path, url] of Object.entries(own)) {
    it(path.split("/").at(-1)!, async () => {
      const want = ownExpected[path.replace(/\.pdf$/, ".json")]!;
      const bytes = Uint8Array.from(atob(url.slice(url.indexOf(",") + 1)), (c) => c.charCodeAt(0));
      const out = parseStatementText(await readPdfText(bytes), 2030);
      if (!out.ok) throw new Error(out.message);
      expect(out.statement.balance.warnings).toEqual([]);
      expect([out.statement.period_start, out.statement.period_end]).toEqual([
        want.period_start,
        want.period_end,
      ]);
      expect(
        out.statement.rows.map((r) => ({
          date: r.date,
          type: r.type,
          amount: r.amount / 100,
          balance: r.balance! / 100,
          description: r.description,
        })),
      ).toEqual(want.transactions);
    });
  }
});
