// The tax pack: membership algebra, evidence precedence, the year boundary, overrides + revert, demo refusals.
import { env } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { countingD1 } from "../../bench/lib/d1-count";
import { getDb } from "../../src/db";
import { taxRenameStatements } from "../../src/domains/tax";
import { transactions } from "../../src/db/schema";
import { decodeTxId } from "../../src/lib/txid";
import { resetState } from "../helpers/auth";
import { call, expectEnvelope } from "../helpers/http";
import { expectEntryInBatch } from "../helpers/ledger-batch";
import { clearTransactions, seedTx } from "../helpers/seed";
import { receiptFixture } from "../fixtures/receipts";

const pack = async (year = 2025) => {
  const res = await call(`/api/v1/tax-pack?year=${year}`);
  expect(res.status, res.text).toBe(200);
  return res.body as { year: number; grand_total: number; lines: any[] };
};
const line = (p: { lines: any[] }, key: string) => p.lines.find((l) => l.key === key);
const item = (body: unknown) => call("/api/v1/tax-pack/items", { method: "POST", body });
const clear = (txId: string) => call(`/api/v1/tax-pack/items/${txId}`, { method: "DELETE" });

async function setCols(txId: string, cols: Partial<typeof transactions.$inferInsert>) {
  const k = decodeTxId(txId)!;
  await getDb(env.DB).update(transactions).set(cols).where(eq(transactions.DateFileName, k.dateFileName));
}

async function attachReceipt(txId: string, name = "receipt.jpg") {
  const fd = new FormData();
  fd.append(
    "file",
    new File([receiptFixture(name)], name, {
      type: name.endsWith(".pdf") ? "application/pdf" : "image/jpeg",
    }),
  );
  fd.append("tx_id", txId);
  const res = await call("/api/v1/attachments", { method: "POST", rawBody: fd });
  expect(res.status, res.text).toBe(200);
  return res.body.id as string;
}

async function reset() {
  await resetState();
  await clearTransactions();
  await env.DB.batch(
    ["attachments", "tax_overrides", "tax_mapping"].map((t) => env.DB.prepare(`DELETE FROM ${t}`)),
  );
}

beforeEach(reset);

describe("GET /api/v1/tax-pack", () => {
  it("buckets the year's spending rows by lowercased category into the seven lines", async () => {
    await seedTx({
      DateFileName: "2025.03.01_10.00_a.eml",
      Category: "charitable giving",
      Amount: 50,
      Company: "Food Bank",
    });
    await seedTx({ DateFileName: "2025.04.01_10.00_b.eml", Category: "Health Care", Amount: 20.25 });
    await seedTx({ DateFileName: "2025.04.02_10.00_c.eml", Category: "THERAPY", Amount: 100 });
    await seedTx({ DateFileName: "2025.04.03_10.00_d.eml", Category: "Groceries", Amount: 70 });
    await seedTx({
      DateFileName: "2025.04.04_10.00_e.eml",
      Category: "Charitable Giving",
      Amount: 9,
      TransactionType: "e-transfer",
    });
    await seedTx({
      DateFileName: "2025.04.05_10.00_f.eml",
      Category: "Charitable Giving",
      Amount: 9,
      DeletedAt: "2025-05-01",
    });
    await seedTx({
      DateFileName: "2025.04.06_10.00_g.eml",
      Category: "Charitable Giving",
      Amount: 9,
      Ignored: 1,
    });
    const p = await pack();
    expect(p.lines.map((l) => l.key)).toEqual([
      "charitable",
      "medical",
      "childcare",
      "moving",
      "tuition",
      "dues",
      "instalments",
    ]);
    expect(line(p, "charitable")).toMatchObject({
      total: 50,
      transaction_count: 1,
      label: "Charitable donations",
    });
    expect(line(p, "medical")).toMatchObject({
      total: 120.25,
      transaction_count: 2,
      categories: ["Health Care", "Therapy"],
    });
    expect(line(p, "medical").note).toMatch(/reimbursed/);
    expect(line(p, "childcare")).toMatchObject({ total: 0, transaction_count: 0, transactions: [] });
    expect(p.grand_total).toBe(170.25);
    expect(line(p, "charitable").transactions[0]).toMatchObject({
      date: "2025-03-01",
      company: "Food Bank",
      amount: 50,
      evidence: "email",
      manual: false,
      date_file_name: "2025.03.01_10.00_a.eml",
    });
  });

  it("cuts the year at the local-time DateFileName boundary", async () => {
    await seedTx({ DateFileName: "2024.12.31_23.59_late.eml", Category: "Moving", Amount: 1 });
    await seedTx({ DateFileName: "2025.01.01_00.00_early.eml", Category: "Moving", Amount: 2 });
    await seedTx({ DateFileName: "2025.12.31_23.59_end.eml", Category: "Moving", Amount: 4 });
    await seedTx({ DateFileName: "2026.01.01_00.01_next.eml", Category: "Moving", Amount: 8 });
    expect(line(await pack(2024), "moving").total).toBe(1);
    expect(line(await pack(2025), "moving").total).toBe(6);
    expect(line(await pack(2026), "moving").total).toBe(8);
  });

  it("ranks evidence receipt > statement > email and counts the strongest per row", async () => {
    const a = await seedTx({ DateFileName: "2025.02.01_10.00_a.eml", Category: "Education", Amount: 10 });
    const b = await seedTx({ DateFileName: "2025.02.02_10.00_b.eml", Category: "Education", Amount: 10 });
    const c = await seedTx({ DateFileName: "2025.02.03_10.00_c.eml", Category: "Education", Amount: 10 });
    const d = await seedTx({ DateFileName: "2025.02.04_10.00_d.eml", Category: "Education", Amount: 10 });
    await setCols(a, { StatementSource: "stmt_1" });
    await attachReceipt(a);
    await setCols(b, { StatementSource: "stmt_1" });
    await setCols(d, { FileName: null });
    const l = line(await pack(), "tuition");
    expect(l.transactions.map((t: any) => [t.tx_id, t.evidence])).toEqual([
      [a, "receipt"],
      [b, "statement"],
      [c, "email"],
      [d, "none"],
    ]);
    expect(l.evidence_counts).toEqual({ receipt: 1, statement: 1, email: 1 });
  });

  it("refuses a year outside 2020–2099", async () => {
    expectEnvelope(await call("/api/v1/tax-pack?year=1999"), 422, "VALIDATION_ERROR");
    expectEnvelope(await call("/api/v1/tax-pack"), 422, "VALIDATION_ERROR");
  });
});

describe("overrides", () => {
  it("include, exclude, include into other, include of an unmapped category, clear", async () => {
    const gift = await seedTx({
      DateFileName: "2025.05.01_10.00_a.eml",
      Category: "Charitable Giving",
      Amount: 40,
    });
    const groc = await seedTx({ DateFileName: "2025.05.02_10.00_b.eml", Category: "Groceries", Amount: 15 });
    const doc = await seedTx({ DateFileName: "2025.05.03_10.00_c.eml", Category: "Health Care", Amount: 30 });
    const dues = await seedTx({
      DateFileName: "2025.05.04_10.00_d.eml",
      Category: "Professional Services",
      Amount: 5,
    });

    // exclude a derived row: it leaves the totals and shows under excluded_transactions
    expect((await item({ tx_id: gift, mode: "exclude" })).status).toBe(204);
    let p = await pack();
    expect(line(p, "charitable")).toMatchObject({
      total: 0,
      transaction_count: 0,
      evidence_counts: { email: 0, receipt: 0, statement: 0 },
    });
    expect(line(p, "charitable").excluded_transactions).toEqual([
      expect.objectContaining({ tx_id: gift, manual: true }),
    ]);
    expect(p.grand_total).toBe(35);

    // an unmapped category included into a mapped line lands in Other claimable
    expect((await item({ tx_id: groc, mode: "include", line_key: "medical" })).status).toBe(204);
    // a mapped row included into `other` moves there
    expect((await item({ tx_id: dues, mode: "include", line_key: "other" })).status).toBe(204);
    // a mapped row included into another line moves to that line
    expect((await item({ tx_id: doc, mode: "include", line_key: "moving" })).status).toBe(204);
    p = await pack();
    const other = line(p, "other");
    expect(other).toMatchObject({ label: "Other claimable", total: 20, transaction_count: 2 });
    expect(other.transactions.map((t: any) => t.tx_id)).toEqual([groc, dues]);
    expect(line(p, "dues").transaction_count).toBe(0);
    expect(line(p, "medical").transaction_count).toBe(0);
    expect(line(p, "moving").transactions).toEqual([expect.objectContaining({ tx_id: doc, manual: true })]);
    expect(p.lines.at(-1).key).toBe("other");

    // clearing restores derivation; Other claimable disappears once empty
    for (const id of [gift, groc, dues, doc]) expect((await clear(id)).status).toBe(204);
    p = await pack();
    expect(line(p, "other")).toBeUndefined();
    expect(line(p, "charitable").total).toBe(40);
    expect(line(p, "medical").total).toBe(30);
    expect(p.grand_total).toBe(75);
    expectEnvelope(await clear(gift), 404, "NOT_FOUND");
  });

  it("validates the request", async () => {
    const tx = await seedTx({ DateFileName: "2025.05.01_10.00_a.eml", Category: "Moving" });
    const dep = await seedTx({ DateFileName: "2025.05.02_10.00_b.eml", TransactionType: "deposit" });
    expectEnvelope(await item({ tx_id: tx, mode: "include" }), 422, "VALIDATION_ERROR");
    expectEnvelope(await item({ tx_id: tx, mode: "include", line_key: "yacht" }), 422, "VALIDATION_ERROR");
    expectEnvelope(await item({ tx_id: tx, mode: "maybe" }), 422, "VALIDATION_ERROR");
    expectEnvelope(await item({ tx_id: dep, mode: "include", line_key: "other" }), 422, "VALIDATION_ERROR");
    expectEnvelope(await item({ tx_id: "!!", mode: "exclude" }), 422, "VALIDATION_ERROR");
    const ghost = btoa("me@example.com\n2025.01.01_00.00_x.eml").replaceAll("=", "");
    expectEnvelope(await item({ tx_id: ghost, mode: "exclude" }), 404, "NOT_FOUND");
  });

  it("journals every override and undoes it through the activity ledger", async () => {
    const tx = await seedTx({ DateFileName: "2025.06.01_10.00_a.eml", Category: "Childcare", Amount: 12 });
    await item({ tx_id: tx, mode: "exclude" });
    const set = countingD1(env.DB);
    const included = await call("/api/v1/tax-pack/items", {
      method: "POST",
      body: { tx_id: tx, mode: "include", line_key: "other" },
      env: { DB: set.db },
    });
    expect(included.status, included.text).toBe(204);
    expectEntryInBatch(set, "tax_overrides");
    expect(set.trips.at(-1)!.sql.some((q) => q.includes('"activity_log"'))).toBe(true);
    await clear(tx);
    const entries = (await call("/api/v1/activity")).body.entries as any[];
    expect(entries.slice(0, 3).map((e) => [e.operation_id, e.reversible, e.resource_id])).toEqual([
      ["clearTaxOverride", true, tx],
      ["setTaxOverride", true, tx],
      ["setTaxOverride", true, tx],
    ]);
    // undo the clear: the include comes back (the revert's entry rides in the restore's batch)
    const undo = countingD1(env.DB);
    let res = await call(`/api/v1/activity/${entries[0].id}/revert`, {
      method: "POST",
      env: { DB: undo.db },
    });
    expect(res.status, res.text).toBe(200);
    expectEntryInBatch(undo, "tax_overrides");
    expect(line(await pack(), "other").transactions[0].tx_id).toBe(tx);
    // undo the include: back to the exclude
    res = await call(`/api/v1/activity/${entries[1].id}/revert`, { method: "POST" });
    expect(res.status, res.text).toBe(200);
    expect(line(await pack(), "childcare").excluded_transactions).toHaveLength(1);
    // undo the first exclude: no override at all
    res = await call(`/api/v1/activity/${entries[2].id}/revert`, { method: "POST" });
    expect(res.status, res.text).toBe(200);
    expect(line(await pack(), "childcare").total).toBe(12);
  });

  it("a revert over an override or mapping changed since is stale (409) and writes nothing", async () => {
    const tx = await seedTx({ DateFileName: "2025.06.01_10.00_a.eml", Category: "Childcare", Amount: 12 });
    await item({ tx_id: tx, mode: "exclude" });
    const vet = { lines: [{ key: "vet", label: "Vet bills", categories: ["Pets"] }] };
    expect((await call("/api/v1/tax-pack/mapping", { method: "PUT", body: vet })).status).toBe(200);
    const [mapped, excluded] = (await call("/api/v1/activity")).body.entries as any[];
    await item({ tx_id: tx, mode: "include", line_key: "other" });
    const kids = { lines: [{ key: "kids", label: "Childcare", categories: ["Childcare"] }] };
    expect((await call("/api/v1/tax-pack/mapping", { method: "PUT", body: kids })).status).toBe(200);
    const revert = (id: string) => call(`/api/v1/activity/${id}/revert`, { method: "POST" });
    expect(expectEnvelope(await revert(excluded.id), 409, "stale_revert").details.changed_fields).toEqual([
      "line_key",
      "mode",
    ]);
    expect(expectEnvelope(await revert(mapped.id), 409, "stale_revert").details.changed_fields).toEqual([
      "lines",
    ]);
    expect((await call("/api/v1/tax-pack/mapping")).body.mapping.lines.map((l: any) => l.key)).toEqual([
      "kids",
    ]);
    const row = await env.DB.prepare("SELECT mode, line_key FROM tax_overrides").first();
    expect(row).toEqual({ mode: "include", line_key: "other" });
  });

  it("demo mode refuses both mutations and the export", async () => {
    const tx = await seedTx({ DateFileName: "2025.06.01_10.00_a.eml", Category: "Childcare" });
    const demo = { DEMO_MODE: "true" };
    expectEnvelope(
      await call("/api/v1/tax-pack/items", {
        method: "POST",
        body: { tx_id: tx, mode: "exclude" },
        env: demo,
      }),
      405,
      "METHOD_NOT_ALLOWED",
    );
    expectEnvelope(
      await call(`/api/v1/tax-pack/items/${tx}`, { method: "DELETE", env: demo }),
      405,
      "METHOD_NOT_ALLOWED",
    );
    expectEnvelope(await call("/api/v1/tax-pack/export?year=2025", { env: demo }), 405, "METHOD_NOT_ALLOWED");
    expect((await call("/api/v1/tax-pack?year=2025", { env: demo })).status).toBe(200);
  });
});

describe("lines and the personal mapping", () => {
  it("lists the picker options with other last", async () => {
    const res = await call("/api/v1/tax-pack/lines");
    expect(res.body.lines.map((l: any) => l.key)).toEqual([
      "charitable",
      "medical",
      "childcare",
      "moving",
      "tuition",
      "dues",
      "instalments",
      "other",
    ]);
    expect(res.body.lines.at(-1)).toEqual({ key: "other", label: "Other claimable" });
  });

  it("a personal mapping replaces the packaged one; a category claimed twice is a 422 in words", async () => {
    await seedTx({ DateFileName: "2025.07.01_10.00_a.eml", Category: "Pets", Amount: 3 });
    const bad = await call("/api/v1/tax-pack/mapping", {
      method: "PUT",
      body: {
        lines: [
          { key: "a", label: "A", categories: ["Pets"] },
          { key: "b", label: "B", categories: ["pets"] },
        ],
      },
    });
    const e = expectEnvelope(bad, 422, "VALIDATION_ERROR");
    expect(e.details.errors[0].msg).toBe("Category 'pets' is claimed by two lines: 'a' and 'b'");
    const [put, undo] = [countingD1(env.DB), countingD1(env.DB)];
    const good = await call("/api/v1/tax-pack/mapping", {
      method: "PUT",
      body: { lines: [{ key: "vet", label: "Vet bills", categories: ["Pets"] }] },
      env: { DB: put.db },
    });
    expect(good.status, good.text).toBe(200);
    expectEntryInBatch(put, "tax_mapping");
    expect(good.body.personal).toBe(true);
    // The answer is the written mapping (no re-read): the write is the last trip, and a read agrees.
    expect(put.trips.at(-1)!.sql.some((q) => q.includes('"activity_log"'))).toBe(true);
    expect(good.body).toEqual((await call("/api/v1/tax-pack/mapping")).body);
    const p = await pack();
    expect(p.lines.map((l) => [l.key, l.total])).toEqual([["vet", 3]]);
    expect((await call("/api/v1/tax-pack?year=2025")).body).toEqual(p);
    expect(await env.FILES.get("backups/config/tax_mapping.json")).not.toBeNull();
    const entries = (await call("/api/v1/activity")).body.entries as any[];
    expect(entries[0]).toMatchObject({
      operation_id: "putTaxMapping",
      summary: "Set a personal tax line mapping",
    });
    const back = await call(`/api/v1/activity/${entries[0].id}/revert`, {
      method: "POST",
      env: { DB: undo.db },
    });
    expect(back.status).toBe(200);
    expectEntryInBatch(undo, "tax_mapping");
    expect((await pack()).lines).toHaveLength(7);
    const drop = countingD1(env.DB);
    const vet = { lines: [{ key: "vet", label: "Vet bills", categories: ["Pets"] }] };
    expect((await call("/api/v1/tax-pack/mapping", { method: "PUT", body: vet })).status).toBe(200);
    const dropped = await call("/api/v1/tax-pack/mapping", { method: "DELETE", env: { DB: drop.db } });
    expect(dropped.status).toBe(200);
    expectEntryInBatch(drop, "tax_mapping");
    expect(drop.trips.at(-1)!.sql.some((q) => q.includes('"activity_log"'))).toBe(true);
    expect(dropped.body).toEqual((await call("/api/v1/tax-pack/mapping")).body);
    expect(dropped.body.personal).toBe(false);
  });

  it("a renamed or deleted category carries through the personal mapping", async () => {
    const put = await call("/api/v1/tax-pack/mapping", {
      method: "PUT",
      body: { lines: [{ key: "vet", label: "Vet bills", categories: ["Pets", "Hobbies"] }] },
    });
    expect(put.status, put.text).toBe(200);
    const db = getDb(env.DB);
    const renamed = await taxRenameStatements(db, "pets", "Animals", "2025-01-01T00:00:00Z");
    expect(renamed).toHaveLength(1);
    await db.batch(renamed as [any]);
    const deleted = await taxRenameStatements(db, "Hobbies", null, "2025-01-01T00:00:00Z");
    await db.batch(deleted as [any]);
    const now = await call("/api/v1/tax-pack/mapping");
    expect(now.body.mapping.lines[0].categories).toEqual(["Animals"]);
    expect(await taxRenameStatements(db, "Groceries", "Food", "2025-01-01T00:00:00Z")).toEqual([]);
  });
});
