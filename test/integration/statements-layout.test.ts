// A PDF layout no rule reads, taught once by marking its columns: the review gets the page as laid
// out, the marks read and balance-check the rows, the layout is kept under its header's
// fingerprint, and the next statement of that layout reads with no help. Rename/delete are undoable.
import { env } from "cloudflare:test";
import { beforeEach, describe, expect, it } from "vitest";
import { call } from "../helpers/http";
import { riberaStatement } from "../fixtures/statements/unknown-bank";

const NOW = "2025-04-02T12:00:00.000Z";

function form(bytes: Uint8Array, name: string) {
  const fd = new FormData();
  fd.append("file", new File([bytes], name, { type: "application/pdf" }));
  return fd;
}
const upload = (bytes: Uint8Array) =>
  call("/api/v1/statements/upload", { method: "POST", rawBody: form(bytes, "extracto.pdf"), now: NOW });

const JANUARY = riberaStatement(["01/01/2025", "31/01/2025"], 150_000, [
  { date: "03/01/2025", text: "MERCADONA VALENCIA", cents: -4_512 },
  { date: "05/01/2025", text: "NOMINA ACME SL", cents: 210_000 },
  { date: "12/01/2025", text: "RECIBO LUZ IBERDROLA", cents: -6_390 },
  { date: "12/01/2025", text: "BIZUM A MARTA", cents: -1_500 },
]);
const FEBRUARY = riberaStatement(["01/02/2025", "28/02/2025"], 347_598, [
  { date: "02/02/2025", text: "FARMACIA CENTRO", cents: -1_234 },
  { date: "10/02/2025", text: "DEVOLUCION AMAZON", cents: 2_999 },
  { date: "11/02/2025", text: "TRANSFERENCIA ALQUILER", cents: -85_000 },
]);

type Line = { page: number; y: number; items: { x: number; w: number; str: string }[] };
const spanOf = (lines: Line[], str: string) => {
  const it = lines.flatMap((l) => l.items).find((i) => i.str === str)!;
  return { x0: it.x, x1: it.x + it.w };
};

async function reset() {
  await env.DB.batch(
    [
      "statements",
      "statement_rows",
      "statement_row_keys",
      "statement_layouts",
      "transactions",
      "activity_log",
    ].map((t) => env.DB.prepare(`DELETE FROM ${t}`)),
  );
}

describe("teaching a PDF layout by marking its columns", () => {
  beforeEach(reset);

  it("keeps an unreadable table for review, reads it from the marks, and reads the next month alone", async () => {
    const up = await upload(JANUARY);
    expect(up.status).toBe(200);
    expect(up.body.summary.total_parsed).toBe(0);
    expect(up.body.balance_check.ok).toBe(false);
    expect(up.body.balance_check.warnings.join(" ")).toMatch(
      /mark its date, description, amount and balance columns/,
    );
    const id = up.body.statement_id as string;

    const page = await call(`/api/v1/statements/${id}/page-text`, { now: NOW });
    expect(page.status).toBe(200);
    const lines = page.body.lines as Line[];
    expect(lines.map((l) => l.items.map((i) => i.str).join(" "))).toContain(
      "F. Oper. Movimiento Cuantia Disponible",
    );

    // The person marks a row's date, description, amount and balance (the spans of those cells).
    const row = lines.find((l) => l.items[0]?.str === "03/01/2025")!;
    const marks = {
      date: { x0: row.items[0]!.x, x1: row.items[0]!.x + row.items[0]!.w },
      description: { x0: row.items[1]!.x, x1: row.items[1]!.x + 150 },
      amount: spanOf(lines, "-45,12"),
      balance: spanOf(lines, "1.454,88"),
    };
    const taught = await call(`/api/v1/statements/${id}/layout`, {
      method: "PUT",
      body: { marks, institution: "Banco Ribera" },
      now: NOW,
    });
    expect(taught.status).toBe(200);
    expect(taught.body.layout.header).toEqual(["foper", "movimiento", "cuantia", "disponible"]);
    const s = taught.body.statement;
    expect(s.balance_check).toMatchObject({ ok: true, opening: 1500, closing: 3475.98, warnings: [] });
    expect(s.period_start).toBe("2025-01-01");
    expect(s.institution).toBe("Banco Ribera");
    expect(
      s.transactions.map((r: any) => [r.date, r.type, Math.round(r.amount * 100), r.raw_description]),
    ).toEqual([
      ["2025-01-03", "withdrawal", 4512, "MERCADONA VALENCIA"],
      ["2025-01-05", "deposit", 210000, "NOMINA ACME SL"],
      ["2025-01-12", "withdrawal", 6390, "RECIBO LUZ IBERDROLA"],
      ["2025-01-12", "withdrawal", 1500, "BIZUM A MARTA"],
    ]);

    const next = await upload(FEBRUARY);
    expect(next.status).toBe(200);
    expect(next.body.metadata.institution).toBe("Banco Ribera");
    expect(next.body.balance_check).toMatchObject({ ok: true, warnings: [] });
    expect(next.body.transactions.map((r: any) => [r.date, r.type, Math.round(r.amount * 100)])).toEqual([
      ["2025-02-02", "withdrawal", 1234],
      ["2025-02-10", "deposit", 2999],
      ["2025-02-11", "withdrawal", 85000],
    ]);
    const list = await call("/api/v1/statements/layouts", { now: NOW });
    expect(list.body.layouts).toHaveLength(1);
    expect(list.body.layouts[0]).toMatchObject({ institution: "Banco Ribera", match_count: 1 });
  });

  it("marks that read nothing are refused in words", async () => {
    const id = (await upload(JANUARY)).body.statement_id as string;
    const res = await call(`/api/v1/statements/${id}/layout`, {
      method: "PUT",
      body: {
        marks: { date: { x0: 300, x1: 310 }, description: { x0: 320, x1: 330 }, amount: { x0: 5, x1: 10 } },
      },
      now: NOW,
    });
    expect(res.status).toBe(422);
    expect(res.body.error).toMatch(/read no rows/);
  });

  it("rename and delete are ledger entries; undoing the delete brings the layout back", async () => {
    const id = (await upload(JANUARY)).body.statement_id as string;
    const lines = (await call(`/api/v1/statements/${id}/page-text`, { now: NOW })).body.lines as Line[];
    const marks = {
      date: spanOf(lines, "03/01/2025"),
      description: spanOf(lines, "MERCADONA VALENCIA"),
      amount: spanOf(lines, "-45,12"),
      balance: spanOf(lines, "1.454,88"),
    };
    const layout = (
      await call(`/api/v1/statements/${id}/layout`, { method: "PUT", body: { marks }, now: NOW })
    ).body.layout;
    const renamed = await call(`/api/v1/statements/layouts/${layout.id}`, {
      method: "PATCH",
      body: { name: "Ribera current account" },
      now: NOW,
    });
    expect(renamed.body.name).toBe("Ribera current account");
    expect(
      (await call(`/api/v1/statements/layouts/${layout.id}`, { method: "DELETE", now: NOW })).status,
    ).toBe(200);
    expect((await call("/api/v1/statements/layouts", { now: NOW })).body.layouts).toEqual([]);
    const [latest] = (await call("/api/v1/activity", { now: NOW })).body.entries as any[];
    expect(latest.summary).toMatch(/deleted statement layout/);
    const undo = await call(`/api/v1/activity/${latest.id}/revert`, { method: "POST", now: NOW });
    expect(undo.status).toBe(200);
    const back = (await call("/api/v1/statements/layouts", { now: NOW })).body.layouts;
    expect(back.map((l: any) => l.name)).toEqual(["Ribera current account"]);
  });
});
