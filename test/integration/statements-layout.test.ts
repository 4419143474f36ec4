// A PDF layout no rule reads, taught once by marking its columns: the review gets the page as laid
// out, the marks read and balance-check the rows, the layout is kept under its header's
// fingerprint, and the next statement of that layout reads with no help. Rename/delete are undoable.
import { env } from "cloudflare:test";
import { beforeEach, describe, expect, it } from "vitest";
import { countingD1 } from "../../bench/lib/d1-count";
import { call } from "../helpers/http";
import { expectEntryInBatch } from "../helpers/ledger-batch";
import { type FakeModel, fakeModel, modelServerUrl } from "../helpers/fake-model-client";
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
      /Mark its date, description, amount and balance columns/,
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
    // Teach, rename and delete each journal in their own write's batch.
    const [teach, rename, drop] = [countingD1(env.DB), countingD1(env.DB), countingD1(env.DB)];
    const layout = (
      await call(`/api/v1/statements/${id}/layout`, {
        method: "PUT",
        body: { marks },
        now: NOW,
        env: { DB: teach.db },
      })
    ).body.layout;
    expectEntryInBatch(teach, "statement_layouts");
    expectEntryInBatch(teach, "statement_rows");
    const renamed = await call(`/api/v1/statements/layouts/${layout.id}`, {
      method: "PATCH",
      body: { name: "Ribera current account" },
      now: NOW,
      env: { DB: rename.db },
    });
    expect(renamed.body.name).toBe("Ribera current account");
    expectEntryInBatch(rename, "statement_layouts");
    const deleted = await call(`/api/v1/statements/layouts/${layout.id}`, {
      method: "DELETE",
      now: NOW,
      env: { DB: drop.db },
    });
    expect(deleted.status).toBe(200);
    expectEntryInBatch(drop, "statement_layouts");
    expect((await call("/api/v1/statements/layouts", { now: NOW })).body.layouts).toEqual([]);
    const [latest] = (await call("/api/v1/activity", { now: NOW })).body.entries as any[];
    expect(latest.summary).toMatch(/deleted statement layout/);
    const undoing = countingD1(env.DB);
    const undo = await call(`/api/v1/activity/${latest.id}/revert`, {
      method: "POST",
      now: NOW,
      env: { DB: undoing.db },
    });
    expect(undo.status).toBe(200);
    expectEntryInBatch(undoing, "statement_layouts");
    const back = (await call("/api/v1/statements/layouts", { now: NOW })).body.layouts;
    expect(back.map((l: any) => l.name)).toEqual(["Ribera current account"]);
  });

  it("a layout's undo is refused as stale once the layout changed (renamed, or it read a statement), in one batch otherwise", async () => {
    const id = (await upload(JANUARY)).body.statement_id as string;
    const lines = (await call(`/api/v1/statements/${id}/page-text`, { now: NOW })).body.lines as Line[];
    const marks = {
      date: spanOf(lines, "03/01/2025"),
      description: spanOf(lines, "MERCADONA VALENCIA"),
      amount: spanOf(lines, "-45,12"),
      balance: spanOf(lines, "1.454,88"),
    };
    const taught = await call(`/api/v1/statements/${id}/layout`, {
      method: "PUT",
      body: { marks },
      now: NOW,
    });
    const layout = taught.body.layout;
    const teachEntry = taught.headers.get("X-Activity-Id")!;
    const layouts = async () =>
      (await call("/api/v1/statements/layouts", { now: NOW })).body.layouts as any[];
    const original = (await layouts())[0];
    const rename = async (name: string, now: string) => {
      const res = await call(`/api/v1/statements/layouts/${layout.id}`, {
        method: "PATCH",
        body: { name },
        now,
      });
      expect(res.status, res.text).toBe(200);
      return res.headers.get("X-Activity-Id")!;
    };
    const first = await rename("First", "2025-04-02T12:01:00.000Z");
    const second = await rename("Second", "2025-04-02T12:02:00.000Z");
    const revert = (entry: string, DB = env.DB) =>
      call(`/api/v1/activity/${entry}/revert`, { method: "POST", now: NOW, env: { DB } });
    // The first rename's after image names "First": the layout now says "Second".
    const stale = await revert(first);
    expect(stale.status, stale.text).toBe(409);
    expect(stale.body.code).toBe("stale_revert");
    expect(stale.body.details.changed_fields).toEqual(["name", "updated_at"]);
    expect((await layouts()).map((l) => l.name)).toEqual(["Second"]);
    // The second's undo, then the first's (the layout shows its after image again): 3 trips each.
    for (const [entry, name] of [
      [second, "First"],
      [first, original.name],
    ] as const) {
      const counter = countingD1(env.DB);
      const res = await revert(entry, counter.db);
      expect(res.status, res.text).toBe(200);
      expectEntryInBatch(counter, "statement_layouts");
      expect((await layouts()).map((l) => l.name)).toEqual([name]);
    }
    expect(await layouts()).toEqual([original]);
    // The layout read the next month (its match count moved): undoing the teach is stale.
    expect((await upload(FEBRUARY)).body.transactions).toHaveLength(3);
    const counted = await revert(teachEntry);
    expect(counted.status, counted.text).toBe(409);
    expect(counted.body.code).toBe("stale_revert");
    expect(counted.body.details.changed_fields).toEqual(["last_matched_at", "match_count"]);
    expect((await layouts()).map((l) => l.name)).toEqual([original.name]);
  });
});

// With document parsing routed to a provider, the model may propose the marks; the balance check
// judges them. Only a proposal whose rows add up reaches the person, who still confirms it.
describe("the model proposes the column marks; the balance check is the judge", () => {
  let fm: FakeModel;
  const modelEnv = () => ({ MODEL_API_KEY: fm.key, MODEL_BASE_URL: `${modelServerUrl()}/v1` });
  const propose = (id: string) =>
    call(`/api/v1/statements/${id}/layout-proposal`, { now: NOW, env: modelEnv() });
  const route = (provider: string) =>
    call("/api/v1/config", { method: "PUT", body: { document_parsing_provider: provider }, now: NOW });
  const proposals = async () =>
    (await fm.calls()).filter((c) => c.body?.tool_choice?.function?.name === "propose_statement_columns");
  /** The upload, its laid-out lines, and a cell of the page as the model names it (line number, text). */
  async function uploaded() {
    const id = (await upload(JANUARY)).body.statement_id as string;
    const lines = (await call(`/api/v1/statements/${id}/page-text`, { now: NOW })).body.lines as Line[];
    const cell = (text: string) => ({
      line: lines.findIndex((l) => l.items.some((i) => i.str === text)) + 1,
      text,
    });
    return { id, lines, cell };
  }

  beforeEach(async () => {
    await reset();
    await env.DB.prepare("DELETE FROM app_config").run();
    fm = await fakeModel();
  });

  it("a proposal whose rows balance comes back with its balances; the person confirms it to save the layout", async () => {
    expect((await route("hosted")).status).toBe(200);
    const { id, lines, cell } = await uploaded();
    await fm.script([
      {
        kind: "tool",
        arguments: {
          date: cell("03/01/2025"),
          description: cell("MERCADONA VALENCIA"),
          amount: cell("-45,12"),
          withdrawal: null,
          deposit: null,
          balance: cell("1.454,88"),
        },
      },
    ]);
    const res = await propose(id);
    expect(res.status, res.text).toBe(200);
    expect(res.body.asked).toBe(true);
    expect(res.body.reason).toBeNull();
    expect(res.body.proposal).toMatchObject({ rows: 4, opening: 1500, closing: 3475.98 });
    const want = {
      date: spanOf(lines, "03/01/2025"),
      description: spanOf(lines, "MERCADONA VALENCIA"),
      amount: spanOf(lines, "-45,12"),
      balance: spanOf(lines, "1.454,88"),
    };
    const got = res.body.proposal.marks as Record<string, { x0: number; x1: number }>;
    expect(Object.keys(got).sort()).toEqual(Object.keys(want).sort());
    for (const [role, s] of Object.entries(want)) {
      expect(Math.abs(got[role]!.x0 - s.x0), role).toBeLessThan(0.2);
      expect(Math.abs(got[role]!.x1 - s.x1), role).toBeLessThan(0.2);
    }
    const sent = await proposals();
    expect(sent).toHaveLength(1);
    const prompt = sent[0]!.body.messages.find((m: any) => m.role === "user").content as string;
    expect(prompt).toMatch(/^L1: /);
    expect(prompt).toContain("MERCADONA VALENCIA");
    expect(prompt.length).toBeLessThanOrEqual(9_000);
    // Nothing is saved until the person confirms the marks.
    expect((await call("/api/v1/statements/layouts", { now: NOW })).body.layouts).toEqual([]);
    const taught = await call(`/api/v1/statements/${id}/layout`, {
      method: "PUT",
      body: { marks: res.body.proposal.marks, institution: "Banco Ribera", proposed: true },
      now: NOW,
    });
    expect(taught.status).toBe(200);
    const [entry] = (await call("/api/v1/activity", { now: NOW })).body.entries as any[];
    expect(entry.summary).toMatch(/taught statement layout .*4 rows; columns proposed by the model/);
    expect(taught.body.statement.balance_check).toMatchObject({ ok: true, closing: 3475.98 });
    expect(taught.body.statement.transactions).toHaveLength(4);
  });

  it("a proposal whose rows do not add up is dropped, in words", async () => {
    await route("hosted");
    const { id, cell } = await uploaded();
    // Amount and balance swapped: rows are read, but they do not chain to the printed balances.
    await fm.script([
      {
        kind: "tool",
        arguments: {
          date: cell("03/01/2025"),
          description: cell("MERCADONA VALENCIA"),
          amount: cell("1.454,88"),
          balance: cell("-45,12"),
        },
      },
    ]);
    const res = await propose(id);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ asked: true, proposal: null });
    expect(res.body.reason).toMatch(/proposal was dropped: the rows its columns read do not add up/);
    expect(res.body.reason).toMatch(/mark the columns by hand/);
    expect(await proposals()).toHaveLength(1);
    expect((await call("/api/v1/statements/layouts", { now: NOW })).body.layouts).toEqual([]);
  });

  it("malformed JSON, a wrong shape, a cell not on the page or a provider failure drop the proposal; never a 500", async () => {
    await route("hosted");
    const { id, cell } = await uploaded();
    await fm.script([
      { kind: "malformed" },
      { kind: "tool", arguments: { date: cell("03/01/2025"), description: "MERCADONA" } },
      {
        kind: "tool",
        arguments: {
          date: cell("03/01/2025"),
          description: cell("MERCADONA VALENCIA"),
          amount: { line: 2, text: "-99,99" },
        },
      },
      { kind: "status", status: 500 },
    ]);
    const reasons = [];
    for (let i = 0; i < 4; i++) {
      const res = await propose(id);
      expect(res.status, res.text).toBe(200);
      expect(res.body).toMatchObject({ asked: true, proposal: null });
      reasons.push(res.body.reason as string);
    }
    expect(reasons[0]).toMatch(/dropped: the model's answer could not be used/);
    expect(reasons[1]).toMatch(
      /dropped: the answer was not a set of column marks \(its description is not a cell/,
    );
    expect(reasons[2]).toMatch(/dropped: the amount cell “-99,99” is not on the page/);
    expect(reasons[3]).toMatch(/dropped: the provider answered with an error/);
    expect(await proposals()).toHaveLength(4);
  });

  it("with document parsing off, nothing reaches the model and the person marks by hand", async () => {
    await route("disabled");
    const { id } = await uploaded();
    const res = await propose(id);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ asked: false, proposal: null });
    expect(res.body.reason).toMatch(/Document parsing is turned off/);
    expect(await fm.calls()).toHaveLength(0);
  });
});
