// The PDF part of the peer corpus (../shared/corpora/project-peers/statements/<project>/*.pdf; skipped where absent: other projects' own statement fixtures,
// each beside `<file>.expected.json` with the rows that project's tests assert), uploaded through
// the HTTP API: every row exact (date and signed amount in cents) and the printed balances checked,
// or a refusal in words where the expectation says why.
import { env } from "cloudflare:test";
import { beforeEach, describe, expect, it } from "vitest";
import { call } from "../helpers/http";

const NOW = "2026-01-15T12:00:00.000Z";
const pdfs = import.meta.glob("../../../shared/corpora/project-peers/statements/**/*.pdf", {
  query: "?url&inline",
  import: "default",
  eager: true,
}) as Record<string, string>;
const expectations = import.meta.glob(
  "../../../shared/corpora/project-peers/statements/**/*.pdf.expected.json",
  {
    import: "default",
    eager: true,
  },
) as Record<
  string,
  {
    rows?: { date: string; amount_cents: number }[];
    /** What the peer's tests assert when they do not list every row: count, first row, sum. */
    peer_asserts?: { count: number; first: { date: string; amount_cents: number }; total_cents: number };
    /** false: the statement's own printed numbers do not add up (`note` says how); the rows are still the peer's. */
    balance_ok?: boolean;
    refused?: string;
    opening_cents?: number;
    closing_cents?: number;
  }
>;
const bytesOf = (url: string) =>
  Uint8Array.from(atob(url.slice(url.indexOf(",") + 1)), (c) => c.charCodeAt(0));

if (Object.keys(pdfs).length === 0)
  it.skip("peer statement PDFs: ../shared/corpora/project-peers/statements is absent here (skipped)", () => {});

describe("peer statement PDFs through the HTTP API", () => {
  beforeEach(async () => {
    await env.DB.batch(
      ["statements", "statement_rows", "statement_row_keys"].map((t) => env.DB.prepare(`DELETE FROM ${t}`)),
    );
  });
  it.skipIf(Object.keys(pdfs).length === 0)("has at least twelve PDFs, each with its expectation", () => {
    expect(Object.keys(pdfs).length).toBeGreaterThanOrEqual(12);
    for (const k of Object.keys(pdfs)) expect(expectations[`${k}.expected.json`], k).toBeDefined();
  });
  for (const [path, url] of Object.entries(pdfs)) {
    const want = expectations[`${path}.expected.json`]!;
    it(path.replace("../../../shared/corpora/project-peers/statements/", ""), async () => {
      const fd = new FormData();
      fd.append("file", new File([bytesOf(url)], path.split("/").at(-1)!, { type: "application/pdf" }));
      const res = await call("/api/v1/statements/upload", { method: "POST", rawBody: fd, now: NOW });
      if (want.refused) {
        expect(res.status, res.text).toBe(422);
        expect(res.body.error).toContain(want.refused);
        return;
      }
      expect(res.status, res.text).toBe(200);
      const got = (res.body.transactions as { date: string; amount: number; type: string }[]).map(
        (t) => `${t.date} ${Math.round(t.amount * 100) * (t.type === "withdrawal" ? -1 : 1)}`,
      );
      if (want.peer_asserts) {
        const a = want.peer_asserts;
        expect(got).toHaveLength(a.count);
        expect(got[0]).toBe(`${a.first.date} ${a.first.amount_cents}`);
        expect(got.reduce((sum, g) => sum + Number(g.split(" ")[1]), 0)).toBe(a.total_cents);
      } else expect(got).toEqual(want.rows!.map((r) => `${r.date} ${r.amount_cents}`));
      expect(res.body.balance_check.ok, JSON.stringify(res.body.balance_check)).toBe(want.balance_ok ?? true);
      if (want.closing_cents !== undefined) {
        expect(Math.round(res.body.balance_check.closing * 100)).toBe(want.closing_cents);
        expect(Math.round(res.body.balance_check.opening * 100)).toBe(want.opening_cents);
      }
    });
  }
});
