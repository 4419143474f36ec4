// Statements through the HTTP API: upload, the four reconciliation tiers, review, import, undo,
// re-upload, reparse, download, delete, bad files.
import { env } from "cloudflare:test";
import { beforeEach, describe, expect, it } from "vitest";
import { countingD1, tally } from "../../bench/lib/d1-count";
import { call, expectEnvelope } from "../helpers/http";
import { expectEntryInBatch } from "../helpers/ledger-batch";
import { seedTx } from "../helpers/seed";
import { pdfFixture, skipWithoutTidingsPdfs } from "../fixtures/statements";
import { makePdf } from "../fixtures/statements/make-pdf";

const NOW = "2025-04-02T12:00:00.000Z";
const RBC = "Rbc_Chequing_2025-02-24_to_2025-03-24";
const SIMPLII = "Simplii_Chequing_2025-02-27_to_2025-03-30";

function form(bytes: Uint8Array, name: string, type = "application/pdf") {
  const fd = new FormData();
  fd.append("file", new File([bytes], name, { type }));
  return fd;
}
const uploadStatement = (bytes: Uint8Array, name = "statement.pdf", type?: string) =>
  call("/api/v1/statements/upload", { method: "POST", rawBody: form(bytes, name, type), now: NOW });
const detail = (id: string) => call(`/api/v1/statements/${id}`, { now: NOW });
const patchRow = (id: string, idx: number | string, body: unknown) =>
  call(`/api/v1/statements/${id}/transactions/${idx}`, { method: "PATCH", body, now: NOW });
const runImport = (statement_id: string, actions: unknown[] = []) =>
  call("/api/v1/statements/import", { method: "POST", body: { statement_id, actions }, now: NOW });

async function reset() {
  await env.DB.batch(
    ["statements", "statement_rows", "transactions", "activity_log", "overrides", "app_config"].map((t) =>
      env.DB.prepare(`DELETE FROM ${t}`),
    ),
  );
  for (const o of (await env.FILES.list({ prefix: "statements/" })).objects) await env.FILES.delete(o.key);
}

async function putOverride(company: string, category: string) {
  const res = await call(`/api/v1/overrides/${encodeURIComponent(company)}`, {
    method: "PUT",
    body: { category },
    now: NOW,
  });
  if (res.status !== 200) throw new Error(res.text);
}

const tiers = (rows: { reconcile_tier: string }[]) => rows.map((r) => r.reconcile_tier);

describe("upload", () => {
  beforeEach(reset);

  it("parses, reconciles against an empty journal and keeps the PDF in R2 under its hash", async ({
    skip,
  }) => {
    skipWithoutTidingsPdfs(skip);
    const counter = countingD1(env.DB);
    const res = await call("/api/v1/statements/upload", {
      method: "POST",
      rawBody: form(pdfFixture(RBC), "My RBC (March).pdf"),
      now: NOW,
      env: { DB: counter.db },
    });
    expect(res.status).toBe(200);
    // The upload's entry rides in the batch that inserts the statement and its rows.
    expectEntryInBatch(counter, "statement_rows");
    // Auth, the taught layouts with the period's reads over a guessed window, the write: three.
    expect(tally(counter.trips).trips).toBeLessThanOrEqual(3);
    expect(counter.trips[1]!.sql.join(" ")).toMatch(/from "statement_layouts".*from "transactions"/s);
    const b = res.body;
    expect(b.statement_id).toMatch(/^stmt_[0-9a-f]{16}$/);
    expect(b.metadata).toEqual({
      institution: "RBC",
      account_type: "chequing",
      period_start: "2025-02-24",
      period_end: "2025-03-24",
      transaction_count: 11,
      parsed_with_ai: false,
    });
    expect(b.balance_check).toMatchObject({ ok: true, opening: 7500, closing: 7187.06, warnings: [] });
    expect(b.new).toHaveLength(11);
    expect(b.summary).toMatchObject({ total_parsed: 11, new_count: 11, matched_count: 0 });
    expect(b.new[0]).toMatchObject({
      index: 0,
      statement_txn: {
        date: "2025-02-27",
        type: "deposit",
        amount: 1425,
        balance: 8925,
        description: "PayrollDeposit NORTHWINDCORP",
      },
      cleaned_description: "NORTHWINDCORP",
      suggested_category: "Miscellaneous",
    });
    const keys = (await env.FILES.list({ prefix: "statements/" })).objects.map((o) => o.key);
    expect(keys).toHaveLength(1);
    expect(keys[0]).toMatch(/^statements\/rbc\/[0-9a-f]{64}\.pdf$/);
    const listed = countingD1(env.DB);
    const list = await call("/api/v1/statements", { now: NOW, env: { DB: listed.db } });
    expect(list.body.count).toBe(1);
    expect(list.body.statements[0]).toMatchObject({
      filename: "My RBC (March).pdf",
      status: "pending_review",
      new_count: 11,
    });
  });

  it("suggests a category from the overrides", async ({ skip }) => {
    skipWithoutTidingsPdfs(skip);
    await putOverride("GROCERY MARKET", "Groceries");
    const res = await uploadStatement(pdfFixture(SIMPLII));
    const grocery = res.body.new.find(
      (n: { cleaned_description: string }) => n.cleaned_description === "GROCERY MARKET",
    );
    expect(grocery.suggested_category).toBe("Groceries");
  });

  it("reconciles from one read batch", async ({ skip }) => {
    skipWithoutTidingsPdfs(skip);
    await putOverride("GROCERY MARKET", "Groceries");
    await seedTx({
      DateFileName: "2025.03.03_10.00_b.eml",
      Amount: 215.44,
      TransactionType: "purchase",
      Company: "Maplewood Stationery",
    });
    // The same amount seven weeks earlier: inside the guessed window read before the parse, outside
    // the match window the parse asks for (it must not make the match ambiguous).
    await seedTx({
      DateFileName: "2025.01.13_10.00_c.eml",
      Amount: 215.44,
      TransactionType: "purchase",
      Company: "Maplewood Stationery",
    });
    // The resolver's versions, the match window's rows and the other statements' rows: one batch
    // (a PDF's: with the taught layouts, over a window guessed around the upload day).
    const periodBatch = (sql: string[]) =>
      sql.some((q) => q.includes('"config_versions"')) &&
      sql.some((q) => q.includes('"statement_rows"."date"'));
    const answer = async () => {
      const counter = countingD1(env.DB);
      const res = await call("/api/v1/statements/upload", {
        method: "POST",
        rawBody: form(pdfFixture(SIMPLII), "simplii.pdf"),
        now: NOW,
        env: { DB: counter.db },
      });
      expect(res.status, res.text).toBe(200);
      const reads = counter.trips.filter((t) => t.sql.some((q) => /^select .* from "transactions"/i.test(q)));
      const detail = await call(`/api/v1/statements/${res.body.statement_id}`, { now: NOW });
      const rows = (
        detail.body.transactions as {
          date: string;
          amount: number;
          reconcile_tier: string;
          suggested_category: string;
        }[]
      ).map((r) => `${r.date} ${r.amount} ${r.reconcile_tier} ${r.suggested_category}`);
      await call(`/api/v1/statements/${res.body.statement_id}`, { method: "DELETE", now: NOW });
      return { counter, reads, rows };
    };
    const batched = await answer();
    expect(batched.reads).toHaveLength(1);
    expect(periodBatch(batched.reads[0]!.sql)).toBe(true);
    expect(batched.rows.some((r) => r.startsWith("2025-03-03 215.44 matched "))).toBe(true);
    expect(batched.rows.some((r) => r.endsWith(" Groceries"))).toBe(true);
  });

  it("refuses what is not a statement with a clear 4xx and stores nothing", async () => {
    const text = await uploadStatement(
      new TextEncoder().encode("just some words\nnothing else"),
      "notes.txt",
      "text/plain",
    );
    expectEnvelope(text, 415, "UNSUPPORTED_MEDIA_TYPE");
    const letter = makePdf([
      [{ x: 72, y: 700, text: "Dear customer, your new card is on its way. Thank you for banking with us." }],
    ]);
    const a = expectEnvelope(await uploadStatement(letter), 422, "VALIDATION_ERROR");
    expect(a.error).toMatch(/No transaction table/);
    const b = expectEnvelope(await uploadStatement(makePdf([[]])), 422, "VALIDATION_ERROR");
    expect(b.error).toMatch(/scanned/);
    const broken = new TextEncoder().encode("%PDF-1.4\nthis is not really a pdf");
    expectEnvelope(await uploadStatement(broken), 422, "VALIDATION_ERROR");
    expectEnvelope(await uploadStatement(new Uint8Array(0)), 422, "VALIDATION_ERROR");
    const big = new Uint8Array(10 * 1024 * 1024 + 10);
    big.set(new TextEncoder().encode("%PDF-1.4"));
    expectEnvelope(await uploadStatement(big), 413, "PAYLOAD_TOO_LARGE");
    const none = await call("/api/v1/statements/upload", {
      method: "POST",
      rawBody: new FormData(),
      now: NOW,
    });
    expectEnvelope(none, 422, "VALIDATION_ERROR");
    expect((await call("/api/v1/statements", { now: NOW })).body.count).toBe(0);
    expect((await env.FILES.list({ prefix: "statements/" })).objects).toHaveLength(0);
  });
});

describe("reconciliation tiers", () => {
  beforeEach(reset);

  it("exact, suspected duplicate, fuzzy and new; one stored row matched once; opposite directions never", async ({
    skip,
  }) => {
    skipWithoutTidingsPdfs(skip);
    // Statement rows (Simplii): Feb 28 deposit 820.00, Mar 03 withdrawal 215.44, Mar 07 deposit 1750.00,
    // Mar 10 two withdrawals of 200.00, Mar 19 withdrawal 343.91, Mar 20 withdrawal 62.10.
    await seedTx({
      DateFileName: "2025.02.28_09.00_a.eml",
      Amount: 820,
      TransactionType: "e-transfer",
      Company: "RILEY PORTER",
      Category: "miscellaneous",
      CategoryAudit: { source: "fallback" },
    });
    await seedTx({
      DateFileName: "2025.03.03_10.00_b.eml",
      Amount: 215.44,
      TransactionType: "purchase",
      Company: "Maplewood Stationery",
      Category: "office",
    });
    await seedTx({
      DateFileName: "2025.03.07_10.00_c.eml",
      Amount: 1750,
      TransactionType: "purchase",
      Company: "Big Purchase",
    });
    await seedTx({
      DateFileName: "2025.03.10_10.00_d.eml",
      Amount: 200,
      TransactionType: "withdrawal",
      Company: "Northside",
    });
    await seedTx({
      DateFileName: "2025.03.19_10.00_e.eml",
      Amount: 343.91,
      TransactionType: "e-transfer",
      Company: "Streaming",
    });
    await seedTx({
      DateFileName: "2025.03.18_10.00_f.eml",
      Amount: 62.1,
      TransactionType: "purchase",
      Company: "Grocery Market",
    });
    const res = await uploadStatement(pdfFixture(SIMPLII));
    expect(res.status).toBe(200);
    const d = (await detail(res.body.statement_id)).body;
    const byDesc = (date: string, amount: number) =>
      d.transactions.filter((t: { date: string; amount: number }) => t.date === date && t.amount === amount);
    // Tier 1 exact: a statement deposit matches a stored e-transfer; Miscellaneous there makes it enrichable.
    expect(byDesc("2025-02-28", 820)[0]).toMatchObject({
      reconcile_tier: "matched",
      enrichable: false,
      action: "skip",
      company_differs: false,
    });
    expect(byDesc("2025-03-03", 215.44)[0]).toMatchObject({
      reconcile_tier: "matched",
      db_company: "Maplewood Stationery",
      db_amount: 215.44,
      action: "skip",
    });
    // One stored row matched at most once: the second identical 200.00 row is new.
    expect(tiers(byDesc("2025-03-10", 200))).toEqual(["matched", "new"]);
    // Tier 2: a stored e-transfer on the day of a statement withdrawal of the same amount.
    expect(byDesc("2025-03-19", 343.91)[0]).toMatchObject({
      reconcile_tier: "suspected_duplicate",
      db_transaction_type: "e-transfer",
      action: "skip",
    });
    expect(byDesc("2025-03-19", 343.91)[0].reason).toMatch(/e-transfer/);
    // Tier 3: same amount two days apart.
    expect(byDesc("2025-03-20", 62.1)[0]).toMatchObject({
      reconcile_tier: "ambiguous",
      reason: "Same amount 2 days apart",
    });
    expect(byDesc("2025-03-20", 62.1)[0].candidates).toEqual([
      {
        forwarded_to: "me@example.com",
        date_file_name: "2025.03.18_10.00_f.eml",
        company: "Grocery Market",
        amount: 62.1,
        category: "coffee & cafes",
      },
    ]);
    // Opposite directions never match: a stored purchase of 1750.00 against a statement deposit.
    expect(byDesc("2025-03-07", 1750)[0]).toMatchObject({ reconcile_tier: "new", action: "import" });
    expect(res.body.summary).toMatchObject({
      matched_count: 3,
      suspected_duplicate_count: 1,
      ambiguous_count: 1,
      new_count: 10,
    });
    expect(d.capture).toEqual({ caught: 5, total: 15, rate: 0.33 });
    // The journal-wide CaptureSummary (GET /coverage) agrees with the statement's own figure.
    expect((await call("/api/v1/coverage", { now: NOW })).body.capture.overall).toMatchObject({
      caught: d.capture.caught,
      total: d.capture.total,
    });
  });
});

describe("review, import, undo, re-upload, reparse", () => {
  beforeEach(reset);

  it("edits move the statement to in_progress; enrich needs a stored row; bulk edits are all or none", async ({
    skip,
  }) => {
    skipWithoutTidingsPdfs(skip);
    const id = (await uploadStatement(pdfFixture(RBC))).body.statement_id;
    const one = await patchRow(id, 1, { action: "skip" });
    expect(one.body).toMatchObject({ ok: true, tx_index: 1, action: "skip" });
    expect((await detail(id)).body.status).toBe("in_progress");
    expectEnvelope(await patchRow(id, 2, { action: "enrich" }), 422, "VALIDATION_ERROR");
    expectEnvelope(await patchRow(id, 99, { action: "skip" }), 404, "NOT_FOUND");
    expectEnvelope(await patchRow(id, 2, { action: "explode" }), 422, "VALIDATION_ERROR");
    const rowId = (await detail(id)).body.transactions[3].row_id;
    expect(
      (await patchRow(id, rowId, { action: "import", company: "Savings", category: "Transfers" })).body
        .tx_index,
    ).toBe(3);
    const bulk = await call(`/api/v1/statements/${id}/transactions`, {
      method: "PATCH",
      body: {
        updates: [
          { tx_index: 6, action: "skip" },
          { tx_index: 5, action: "update" },
        ],
      },
      now: NOW,
    });
    expectEnvelope(bulk, 422, "VALIDATION_ERROR");
    expect((await detail(id)).body.transactions[6].action).toBe("import");
    const ok = await call(`/api/v1/statements/${id}/transactions`, {
      method: "PATCH",
      body: {
        updates: [
          { tx_index: 4, action: "skip" },
          { tx_index: 5, action: "skip", category: "Rent" },
        ],
      },
      now: NOW,
    });
    expect(ok.body).toEqual({ ok: true, updated: 2 });
    const rows = (await detail(id)).body.transactions;
    expect(rows[3]).toMatchObject({
      action: "import",
      edited_company: "Savings",
      edited_category: "Transfers",
    });
    expect(rows[5]).toMatchObject({ action: "skip", edited_category: "Rent" });
  });

  it("a review edit is undone from the ledger: one row, and a bulk edit as a whole", async ({ skip }) => {
    skipWithoutTidingsPdfs(skip);
    const id = (await uploadStatement(pdfFixture(RBC))).body.statement_id;
    const original = (await detail(id)).body;
    const one = await patchRow(id, 1, { action: "skip", category: "Rent" });
    const oneId = one.headers.get("x-activity-id");
    expect(oneId).toMatch(/^act_/);
    const bulk = await call(`/api/v1/statements/${id}/transactions`, {
      method: "PATCH",
      body: {
        updates: [
          { tx_index: 4, action: "skip" },
          { tx_index: 5, action: "import", company: "Landlord" },
        ],
      },
      now: NOW,
    });
    const bulkId = bulk.headers.get("x-activity-id");
    const revert = (entry: string | null) =>
      call(`/api/v1/activity/${entry}/revert`, { method: "POST", body: {}, now: NOW });
    // The older edit is stale while the bulk edit stands on top of it (the statement changed since).
    expectEnvelope(await revert(oneId), 409, "stale_revert");
    expect((await revert(bulkId)).status).toBe(200);
    let rows = (await detail(id)).body.transactions;
    expect(rows[4]).toMatchObject({ action: original.transactions[4].action, edited_company: null });
    expect(rows[5]).toMatchObject({ action: original.transactions[5].action, edited_company: null });
    expect(rows[1]).toMatchObject({ action: "skip", edited_category: "Rent" });
    const counter = countingD1(env.DB);
    const undoOne = await call(`/api/v1/activity/${oneId}/revert`, {
      method: "POST",
      body: {},
      now: NOW,
      env: { DB: counter.db },
    });
    expect(undoOne.status, undoOne.text).toBe(200);
    expectEntryInBatch(counter, "statement_rows");
    const back = (await detail(id)).body;
    rows = back.transactions;
    expect(rows[1]).toMatchObject({ action: original.transactions[1].action, edited_category: null });
    expect(back.status).toBe(original.status);
  });

  it("imports with synthetic keys, keeps identical same-day rows apart, and one ledger entry undoes it", async ({
    skip,
  }) => {
    skipWithoutTidingsPdfs(skip);
    const id = (await uploadStatement(pdfFixture(SIMPLII))).body.statement_id;
    await patchRow(id, 0, { action: "import", company: "Riley Porter", category: "Gifts" });
    await patchRow(id, 14, { action: "skip" });
    const res = await runImport(id);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      statement_id: id,
      status: "complete",
      imported: 14,
      skipped: 1,
      duplicates: 0,
      enriched: 0,
      updated: 0,
    });
    const tx = await env.DB.prepare("SELECT * FROM transactions ORDER BY DateFileName").all<
      Record<string, any>
    >();
    expect(tx.results).toHaveLength(14);
    for (const t of tx.results) {
      expect(t.DateFileName).toMatch(/^\d{4}\.\d{2}\.\d{2}_00\.00_stmt_simplii_[0-9a-f]{8}\.pdf$/);
      expect(t.Date).toMatch(/^\d{2}\/\d{2}\/\d{4} 00:00 PST$/);
      expect(t.StatementSource).toContain(id);
      expect(JSON.parse(t.CategoryAudit).source).toBe("statement_import");
      // Email-only fields stay empty.
      expect(t.Subject).toBe("");
      expect(t.FromEmail).toBe("");
    }
    const riley = tx.results.find(
      (t) => t.DateFileName.startsWith("2025.02.28") && t.TransactionType === "deposit",
    )!;
    expect(riley).toMatchObject({
      Company: "Riley Porter",
      Category: "gifts",
      Amount: 82000,
      Date: "02/28/2025 00:00 PST",
    });
    const sends = tx.results.filter((t) => t.DateFileName.startsWith("2025.03.10"));
    expect(sends).toHaveLength(2);
    expect(new Set(sends.map((t) => t.DateFileName)).size).toBe(2);
    expect(sends.map((t) => t.Amount)).toEqual([20000, 20000]);
    const d = (await detail(id)).body;
    expect(d).toMatchObject({ status: "complete", imported_count: 14, skipped_count: 1 });
    // Every row of the statement feeds the journal-wide capture rate, as the statement's own figure
    // counts them (no alerts here: 0 of 15 caught; importing does not make a row an alert).
    const cap = (await call("/api/v1/coverage", { now: NOW })).body.capture;
    expect(cap.overall).toEqual({ caught: 0, total: 15, rate: 0 });
    expect(cap.by_institution).toEqual([{ institution: "Simplii", caught: 0, total: 15, rate: 0 }]);
    expect(d.completed_at).toBe(NOW);
    expectEnvelope(await patchRow(id, 1, { action: "skip" }), 409, "ROW_SETTLED");

    // Re-upload: nothing is offered as new again.
    const again = await uploadStatement(pdfFixture(SIMPLII));
    expect(again.body.summary).toMatchObject({ new_count: 1, previously_imported_count: 14 });
    expect(again.body.new[0].statement_txn.description).toBe("INTEREST");

    // Undo the import: one entry, the created rows go, the statement is open again.
    const entry = await env.DB.prepare(
      "SELECT id, reversible FROM activity_log WHERE resource_kind = 'statement-import'",
    ).all<{ id: string; reversible: number }>();
    expect(entry.results).toHaveLength(1);
    expect(entry.results[0]!.reversible).toBe(1);
    const rev = await call(`/api/v1/activity/${entry.results[0]!.id}/revert`, { method: "POST", now: NOW });
    expect(rev.status).toBe(200);
    expect((await env.DB.prepare("SELECT COUNT(*) AS n FROM transactions").first<{ n: number }>())!.n).toBe(
      0,
    );
    const after = (await detail(id)).body;
    expect(after.status).toBe("in_progress");
    expect(after.imported_count).toBe(0);
    expect(after.transactions[0].action_result).toBeNull();
  });

  it("enrich fills company and category, never over a manual category, never Miscellaneous over real information", async ({
    skip,
  }) => {
    skipWithoutTidingsPdfs(skip);
    await putOverride("MAPLEWOOD STATIONERY", "Hobbies");
    const bId = await seedTx({
      DateFileName: "2025.03.03_10.00_b.eml",
      Amount: 215.44,
      TransactionType: "purchase",
      Company: null,
      Category: "miscellaneous",
      CategoryAudit: { source: "fallback" },
    });
    await seedTx({
      DateFileName: "2025.03.04_10.00_c.eml",
      Amount: 612.08,
      TransactionType: "preauth",
      Company: "Landlord",
      Category: "housing",
      CategoryAudit: { source: "manual" },
    });
    await seedTx({
      DateFileName: "2025.03.20_10.00_d.eml",
      Amount: 62.1,
      TransactionType: "purchase",
      Company: "Grocer",
      Category: "groceries",
    });
    const up = await uploadStatement(pdfFixture(SIMPLII));
    const id = up.body.statement_id;
    const rows = (await detail(id)).body.transactions as {
      tx_index: number;
      date: string;
      amount: number;
      action: string;
      enrichable: boolean;
    }[];
    const idx = (date: string, amount: number) => rows.find((r) => r.date === date && r.amount === amount)!;
    expect(idx("2025-03-03", 215.44)).toMatchObject({ action: "enrich", enrichable: true });
    expect(idx("2025-03-04", 612.08)).toMatchObject({ action: "skip", enrichable: false });
    await patchRow(id, idx("2025-03-04", 612.08).tx_index, { action: "enrich", category: "Rent" });
    await patchRow(id, idx("2025-03-20", 62.1).tx_index, { action: "enrich" });
    const res = await runImport(id);
    expect(res.body).toMatchObject({ enriched: 3, imported: 12 });
    const get = (dfn: string) =>
      env.DB.prepare("SELECT * FROM transactions WHERE DateFileName = ?1")
        .bind(dfn)
        .first<Record<string, any>>();
    const b = (await get("2025.03.03_10.00_b.eml"))!;
    expect(b).toMatchObject({ Company: "MAPLEWOOD STATIONERY", Category: "hobbies" });
    expect(JSON.parse(b.CategoryAudit)).toMatchObject({
      source: "statement_enrich",
      previous_category: "miscellaneous",
      previous_source: "fallback",
    });
    expect(b.StatementSource).toContain(id);
    expect(await get("2025.03.04_10.00_c.eml")).toMatchObject({ Company: "Landlord", Category: "housing" });
    expect(await get("2025.03.20_10.00_d.eml")).toMatchObject({ Company: "Grocer", Category: "groceries" });

    // Undo: stale while a transaction it enriched changed since (nothing written); once that change
    // is undone, the restore and its entry in one batch.
    const txCount = async () =>
      (await env.DB.prepare("SELECT COUNT(*) AS n FROM transactions").first<{ n: number }>())!.n;
    expect(await txCount()).toBe(15);
    const undo = (DB = env.DB) =>
      call(`/api/v1/activity/${res.headers.get("X-Activity-Id")}/revert`, {
        method: "POST",
        now: NOW,
        env: { DB },
      });
    const edit = await call(`/api/v1/transactions/${bId}`, {
      method: "PATCH",
      body: { category: "groceries" },
      now: NOW,
    });
    expect(edit.status, edit.text).toBe(200);
    const stale = await undo();
    expectEnvelope(stale, 409, "stale_revert");
    expect(await txCount()).toBe(15);
    expect((await detail(id)).body.status).toBe("complete");
    const editUndo = await call(`/api/v1/activity/${edit.headers.get("X-Activity-Id")}/revert`, {
      method: "POST",
      now: NOW,
    });
    expect(editUndo.status, editUndo.text).toBe(200);
    const counter = countingD1(env.DB);
    const rev = await undo(counter.db);
    expect(rev.status, rev.text).toBe(200);
    expectEntryInBatch(counter, "transactions");
    expect(await txCount()).toBe(3);
    const restored = (await get("2025.03.03_10.00_b.eml"))!;
    expect(restored).toMatchObject({ Company: null, Category: "miscellaneous" });
    expect(JSON.parse(restored.CategoryAudit)).toEqual({ source: "fallback" });
    expect((await detail(id)).body.status).not.toBe("complete");
  });

  it("reparse re-runs parser and reconciliation and keeps the person's edits", async ({ skip }) => {
    skipWithoutTidingsPdfs(skip);
    const id = (await uploadStatement(pdfFixture(RBC))).body.statement_id;
    await patchRow(id, 2, { action: "skip", company: "Transfer in", category: "Transfers" });
    // A stored row arrives after the upload: reparse matches it now.
    await seedTx({
      DateFileName: "2025.03.13_08.00_p.eml",
      Amount: 1425,
      TransactionType: "deposit",
      Company: "Northwind",
    });
    const counter = countingD1(env.DB);
    const res = await call(`/api/v1/statements/${id}/reparse`, {
      method: "POST",
      now: NOW,
      env: { DB: counter.db },
    });
    expect(res.status).toBe(200);
    expectEntryInBatch(counter, "statement_rows");
    // The taught layouts are read once.
    const layouts = counter.trips.filter((t) => t.sql.some((q) => q.includes('from "statement_layouts"')));
    expect(layouts).toHaveLength(1);
    expect(res.body.transactions[2]).toMatchObject({
      action: "skip",
      edited_company: "Transfer in",
      edited_category: "Transfers",
    });
    expect(res.body.transactions[6]).toMatchObject({ reconcile_tier: "matched", db_company: "Northwind" });
    expect(res.body).toMatchObject({ status: "in_progress", matched_count: 1, new_count: 10 });
    expectEnvelope(
      await call("/api/v1/statements/stmt_nope/reparse", { method: "POST", now: NOW }),
      404,
      "NOT_FOUND",
    );
  });
});

describe("download and delete", () => {
  beforeEach(reset);

  it("download returns the stored file under our own name; delete keeps imported transactions", async ({
    skip,
  }) => {
    skipWithoutTidingsPdfs(skip);
    const bytes = pdfFixture(RBC);
    const up = await uploadStatement(bytes, 'évil"; x="../../name.pdf');
    expect(up.status, up.text).toBe(200);
    const id = up.body.statement_id;
    const dl = await call(`/api/v1/statements/${id}/download`, { now: NOW });
    expect(dl.status).toBe(200);
    expect(dl.headers.get("content-type")).toBe("application/pdf");
    expect(dl.headers.get("content-disposition")).toBe(`attachment; filename="statement-${id}.pdf"`);
    expect(dl.text.startsWith("%PDF-")).toBe(true);
    await runImport(id);
    const counter = countingD1(env.DB);
    const del = await call(`/api/v1/statements/${id}`, {
      method: "DELETE",
      now: NOW,
      env: { DB: counter.db },
    });
    expect(del.body).toEqual({ ok: true });
    expectEntryInBatch(counter, "statements");
    // The statement and its rows in one read; whether another statement keeps the file is read in
    // the delete's own batch (the last trip).
    const reads = counter.trips.filter((t) => t.sql.some((q) => /^select .* from "statement_rows"/i.test(q)));
    expect(reads).toHaveLength(1);
    expect(reads[0]!.sql.join(" ")).toMatch(/from "statements".*from "statement_rows"/s);
    expect(counter.trips.at(-1)!.sql.join(" ")).toMatch(/delete from "statements".*COUNT\(\*\)/s);
    expectEnvelope(await detail(id), 404, "NOT_FOUND");
    expectEnvelope(await call(`/api/v1/statements/${id}/download`, { now: NOW }), 404, "NOT_FOUND");
    expectEnvelope(await call(`/api/v1/statements/${id}`, { method: "DELETE", now: NOW }), 404, "NOT_FOUND");
    expect((await env.DB.prepare("SELECT COUNT(*) AS n FROM statement_rows").first<{ n: number }>())!.n).toBe(
      0,
    );
    // 11 rows less the 4 own-account moves that default to skip (two card payments, savings, a transfer).
    expect((await env.DB.prepare("SELECT COUNT(*) AS n FROM transactions").first<{ n: number }>())!.n).toBe(
      7,
    );
    expect((await env.FILES.list({ prefix: "statements/" })).objects).toHaveLength(0);
    expectEnvelope(await runImport(id), 404, "NOT_FOUND");
  });
});
