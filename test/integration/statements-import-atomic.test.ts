// Statement import as plan → one batch → journal: a failure midway leaves nothing imported; keys
// stored at upload; `statement_id` optional as in the reference; PDF page counts read before parsing.
import { env } from "cloudflare:test";
import { beforeEach, describe, expect, it } from "vitest";
import { countingD1 } from "../../bench/lib/d1-count";
import { call, expectEnvelope } from "../helpers/http";
import { expectEntryInBatch } from "../helpers/ledger-batch";
import { pdfFixture, skipWithoutTidingsPdfs } from "../fixtures/statements";

const NOW = "2025-04-02T12:00:00.000Z";
const RBC = "Rbc_Chequing_2025-02-24_to_2025-03-24";
/** Every row of the RBC statement imported (its own-account moves default to skip). */
const IMPORT_ALL = Array.from({ length: 11 }, (_, index) => ({ index, action: "import" as const }));

function form(bytes: Uint8Array, name: string) {
  const fd = new FormData();
  fd.append("file", new File([bytes], name, { type: "application/pdf" }));
  return fd;
}
const upload = (bytes: Uint8Array, name = "statement.pdf") =>
  call("/api/v1/statements/upload", { method: "POST", rawBody: form(bytes, name), now: NOW });
const count = async (sql: string) => ((await env.DB.prepare(sql).first<{ n: number }>())?.n ?? -1) as number;

async function reset() {
  await env.DB.exec("DROP TRIGGER IF EXISTS fail_midway");
  await env.DB.batch(
    ["statements", "statement_rows", "statement_row_keys", "transactions", "activity_log"].map((t) =>
      env.DB.prepare(`DELETE FROM ${t}`),
    ),
  );
}

/** A PDF of `bytes` bytes whose page tree is a DAG: every node names the same child twice. */
function dagPdf(depth: number): Uint8Array {
  const objs = ["<< /Type /Catalog /Pages 2 0 R >>"];
  for (let d = 0; d < depth; d++) {
    objs.push(`<< /Type /Pages /Kids [${3 + d} 0 R ${3 + d} 0 R] /Count ${2 ** (depth - d)} >>`);
  }
  objs.push("<< /Type /Page /MediaBox [0 0 612 792] >>");
  let out = "%PDF-1.4\n";
  const offsets: number[] = [];
  objs.forEach((b, i) => {
    offsets.push(out.length);
    out += `${i + 1} 0 obj\n${b}\nendobj\n`;
  });
  const x = out.length;
  out += `xref\n0 ${objs.length + 1}\n0000000000 65535 f \n`;
  for (const o of offsets) out += `${String(o).padStart(10, "0")} 00000 n \n`;
  out += `trailer\n<< /Size ${objs.length + 1} /Root 1 0 R >>\nstartxref\n${x}\n%%EOF\n`;
  return new TextEncoder().encode(out);
}

describe("statement import is all or nothing", () => {
  beforeEach(reset);

  it("stores every row's synthetic key at upload, and the import writes exactly those keys", async ({
    skip,
  }) => {
    skipWithoutTidingsPdfs(skip);
    const up = await upload(pdfFixture(RBC));
    expect(up.status).toBe(200);
    const id = up.body.statement_id as string;
    const keys = await env.DB.prepare(
      "SELECT tx_index, date_file_name FROM statement_row_keys WHERE statement_id = ? ORDER BY tx_index",
    )
      .bind(id)
      .all<{ tx_index: number; date_file_name: string }>();
    expect(keys.results).toHaveLength(11);
    const imp = await call("/api/v1/statements/import", {
      method: "POST",
      body: { statement_id: id, actions: IMPORT_ALL },
      now: NOW,
    });
    expect(imp.status).toBe(200);
    expect(imp.body.imported).toBe(11);
    const stored = await env.DB.prepare(
      "SELECT DateFileName FROM transactions WHERE ForwardedTo = 'statement@finance-journal.local' ORDER BY DateFileName",
    ).all<{ DateFileName: string }>();
    expect(stored.results.map((r) => r.DateFileName)).toEqual(
      keys.results.map((k) => k.date_file_name).sort(),
    );
  });

  it("review edits and the import journal in their own batch, and the import undoes", async ({ skip }) => {
    skipWithoutTidingsPdfs(skip);
    const id = (await upload(pdfFixture(RBC))).body.statement_id as string;
    const edit = countingD1(env.DB);
    const one = await call(`/api/v1/statements/${id}/transactions/0`, {
      method: "PATCH",
      body: { action: "skip" },
      now: NOW,
      env: { DB: edit.db },
    });
    expect(one.status, one.text).toBe(200);
    expectEntryInBatch(edit, "statement_rows");
    const bulk = countingD1(env.DB);
    const many = await call(`/api/v1/statements/${id}/transactions`, {
      method: "PATCH",
      body: { updates: [{ tx_index: 1, action: "skip" }] },
      now: NOW,
      env: { DB: bulk.db },
    });
    expect(many.status, many.text).toBe(200);
    expectEntryInBatch(bulk, "statement_rows");
    const counter = countingD1(env.DB);
    const imp = await call("/api/v1/statements/import", {
      method: "POST",
      body: { statement_id: id },
      now: NOW,
      env: { DB: counter.db },
    });
    // Rows 0 and 1 skipped by hand, and the 4 own-account moves (2, 3, 4, 8) skipped by default.
    expect(imp.body.imported).toBe(5);
    expectEntryInBatch(counter, "transactions");
    const entry = imp.headers.get("X-Activity-Id");
    const reverting = countingD1(env.DB);
    const undo = await call(`/api/v1/activity/${entry}/revert`, {
      method: "POST",
      now: NOW,
      env: { DB: reverting.db },
    });
    expect(undo.status, undo.text).toBe(200);
    expectEntryInBatch(reverting, "transactions");
    expect(await count("SELECT COUNT(*) AS n FROM transactions")).toBe(0);
  });

  it("an import's undo is stale once what it wrote changed (nothing written); rows without stored keys undo the long way", async ({
    skip,
  }) => {
    skipWithoutTidingsPdfs(skip);
    const id = (await upload(pdfFixture(RBC))).body.statement_id as string;
    const imp = await call("/api/v1/statements/import", {
      method: "POST",
      body: { statement_id: id, actions: IMPORT_ALL },
      now: NOW,
    });
    expect(imp.body.imported).toBe(11);
    const undo = (DB = env.DB) =>
      call(`/api/v1/activity/${imp.headers.get("X-Activity-Id")}/revert`, {
        method: "POST",
        now: NOW,
        env: { DB },
      });
    const state = async () => [
      await count("SELECT COUNT(*) AS n FROM transactions"),
      await count("SELECT COUNT(*) AS n FROM statement_rows WHERE action_result IS NOT NULL"),
      await count("SELECT COUNT(*) AS n FROM activity_log WHERE reverted_at IS NOT NULL"),
    ];
    // Each change the current image sees refuses the undo; put back, the undo stands again.
    const first = "rowid = (SELECT MIN(rowid) FROM transactions)";
    const changes: [string[], string[]][] = [
      [
        [`UPDATE transactions SET StatementSource = StatementSource || ' x' WHERE ${first}`],
        [
          "UPDATE transactions SET StatementSource = rtrim(StatementSource, ' x') WHERE StatementSource LIKE '% x'",
        ],
      ],
      [
        [`UPDATE transactions SET Amount = Amount + 1 WHERE ${first}`],
        [`UPDATE transactions SET Amount = Amount - 1 WHERE ${first}`],
      ],
      [
        [
          `UPDATE transactions SET CategoryAudit = json_set(CategoryAudit, '$.source', 'manual') WHERE ${first}`,
        ],
        [
          `UPDATE transactions SET CategoryAudit = json_set(CategoryAudit, '$.source', 'statement_import') WHERE ${first}`,
        ],
      ],
      // The same map as JSON5 (an unquoted key): SQLite's json() reads it, the column's reader does not.
      [
        [
          `UPDATE transactions SET CategoryAudit = replace(CategoryAudit, '"source"', 'source') WHERE ${first}`,
        ],
        [
          `UPDATE transactions SET CategoryAudit = replace(CategoryAudit, '{source', '{"source"') WHERE ${first}`,
        ],
      ],
      [
        [
          `CREATE TABLE gone AS SELECT * FROM transactions WHERE ${first}`,
          `DELETE FROM transactions WHERE ${first}`,
        ],
        ["INSERT INTO transactions SELECT * FROM gone", "DROP TABLE gone"],
      ],
      [
        [
          `UPDATE statement_row_keys SET date_file_name = date_file_name || 'x' WHERE statement_id = '${id}' AND tx_index = 3`,
        ],
        [
          `UPDATE statement_row_keys SET date_file_name = rtrim(date_file_name, 'x') WHERE statement_id = '${id}' AND tx_index = 3`,
        ],
      ],
      [
        [`UPDATE statement_rows SET acted_at = 'earlier' WHERE statement_id = '${id}' AND tx_index = 3`],
        [`UPDATE statement_rows SET acted_at = '${NOW}' WHERE acted_at = 'earlier'`],
      ],
      [
        [`UPDATE statements SET status = 'in_progress' WHERE id = '${id}'`],
        [`UPDATE statements SET status = 'complete' WHERE id = '${id}'`],
      ],
    ];
    const run = (sqls: string[]) => env.DB.batch(sqls.map((q) => env.DB.prepare(q)));
    for (const [change, back] of changes) {
      const before = await state();
      await run(change);
      expectEnvelope(await undo(), 409, "stale_revert");
      expect(await state()).toEqual(before.map((n, i) => (i === 0 && change.length > 1 ? n - 1 : n)));
      await run(back);
    }
    // An imported row whose synthetic key was not stored (a statement uploaded before keys were
    // kept): the guard refuses to judge it, the read path computes the key and undoes: auth, the
    // entry, the refused batch, the entry again, the statement read, its transactions, the restore.
    await env.DB.exec(`DELETE FROM statement_row_keys WHERE statement_id = '${id}' AND tx_index = 0`);
    const counter = countingD1(env.DB);
    const res = await undo(counter.db);
    expect(res.status, res.text).toBe(200);
    expect(await state()).toEqual([0, 0, 1]);
  });

  it("a write failing midway leaves no transaction, no settled row and the statement as it was", async ({
    skip,
  }) => {
    skipWithoutTidingsPdfs(skip);
    const up = await upload(pdfFixture(RBC));
    const id = up.body.statement_id as string;
    const rows = (await call(`/api/v1/statements/${id}`, { now: NOW })).body.transactions as {
      amount: number;
    }[];
    // The 7th row's insert fails inside the database (as a crash or constraint would), after six succeeded.
    const seventh = Math.round(rows[6]!.amount * 100);
    await env.DB.exec(
      `CREATE TRIGGER fail_midway BEFORE INSERT ON transactions WHEN NEW.Amount = ${seventh} BEGIN SELECT RAISE(ABORT, 'disk gone'); END`,
    );
    const imp = await call("/api/v1/statements/import", {
      method: "POST",
      body: { statement_id: id },
      now: NOW,
    });
    expect(imp.status).toBeGreaterThanOrEqual(500);
    expect(await count("SELECT COUNT(*) AS n FROM transactions")).toBe(0);
    expect(await count(`SELECT COUNT(*) AS n FROM statement_rows WHERE action_result IS NOT NULL`)).toBe(0);
    const after = await call(`/api/v1/statements/${id}`, { now: NOW });
    expect(after.body.status).toBe("pending_review");
    await env.DB.exec("DROP TRIGGER fail_midway");
    const again = await call("/api/v1/statements/import", {
      method: "POST",
      body: { statement_id: id, actions: IMPORT_ALL },
      now: NOW,
    });
    expect(again.body.imported).toBe(11);
  });
});

describe("POST /statements/import without statement_id (as the reference allows)", () => {
  beforeEach(reset);

  it("makes the statement from the request's metadata and rows, then imports by index", async () => {
    const body = {
      filename: "export.pdf",
      metadata: {
        institution: "RBC",
        account_type: "chequing",
        period_start: "2025-03-01",
        period_end: "2025-03-31",
        transaction_count: 2,
        parsed_with_ai: false,
      },
      transactions: [
        {
          date: "2025-03-03",
          description: "COFFEE HOUSE",
          amount: 4.5,
          type: "withdrawal",
          balance: null,
          cleaned_description: "Coffee House",
        },
        {
          date: "2025-03-04",
          description: "PAYROLL",
          amount: 1200,
          type: "deposit",
          balance: null,
          cleaned_description: "Payroll",
        },
      ],
      actions: [{ index: 1, action: "skip" }],
    };
    const counter = countingD1(env.DB);
    const res = await call("/api/v1/statements/import", {
      method: "POST",
      body,
      now: NOW,
      env: { DB: counter.db },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ imported: 1, skipped: 1, duplicates: 0 });
    expect(counter.trips[2]!.sql.join(" ")).toMatch(
      /^insert into "statements".*select .* from "statements"/s,
    );
    const tx = await env.DB.prepare("SELECT Amount, Company FROM transactions").all();
    expect(tx.results).toEqual([{ Amount: 450, Company: "COFFEE HOUSE" }]);
  });

  it("refuses in words when neither statement_id nor the rows are given", async () => {
    const res = await call("/api/v1/statements/import", { method: "POST", body: { actions: [] }, now: NOW });
    const e = expectEnvelope(res, 422, "VALIDATION_ERROR");
    expect(e.error).toMatch(/Without statement_id the request must carry metadata/);
  });
});

describe("PDF cost is bounded before parsing", () => {
  beforeEach(reset);

  it("a 1 KB PDF whose page tree is a DAG of 131,072 pages is refused in words within a second", async () => {
    const bytes = dagPdf(17);
    expect(bytes.length).toBeLessThan(2048);
    const t0 = Date.now();
    const res = await upload(bytes, "dag.pdf");
    expect(Date.now() - t0).toBeLessThan(1000);
    expect(res.status).toBe(413);
    expect(res.body.error).toMatch(/131,072 pages.*up to 300 pages/);
    expect(res.body.details).toMatchObject({ pages: 131072, max_pages: 300 });
    expect(await count("SELECT COUNT(*) AS n FROM statements")).toBe(0);
  });

  it("a page tree claiming 2^40 pages is refused just as fast", async () => {
    const t0 = Date.now();
    const res = await upload(dagPdf(40), "dag40.pdf");
    expect(Date.now() - t0).toBeLessThan(1000);
    expect(res.status).toBe(413);
  });
});
