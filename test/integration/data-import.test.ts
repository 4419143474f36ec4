import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { strToU8, unzipSync, zipSync } from "fflate";
import { beforeEach, describe, expect, it } from "vitest";
import { countingD1 } from "../../bench/lib/d1-count";
import { createApp } from "../../src/app";
import { call, expectEnvelope } from "../helpers/http";
import { expectEntryInBatch } from "../helpers/ledger-batch";
import { seedTx } from "../helpers/seed";
import { buildMime } from "../fixtures/emails/builders";
import { PLAN_LIMITS, perInvocation } from "../helpers/limits";
import type { Env } from "../../src/env";
import type { QueueMessage } from "../../src/jobs/messages";
import { FILES_PER_STEP, runRestoreFilesStep } from "../../src/domains/data/restore-steps";

const MONTHS = ["2026-08", "2026-09", "2026-10"];
const NOW = "2026-10-20T12:00:00.000Z";
// Every table the import restores (the activity ledger records the import itself; secrets never move).
const COMPARED = [
  "transactions",
  "attention_queue",
  "parse_failures",
  "categories",
  "overrides",
  "merchant_aliases",
  "ignore_rules",
  "dismissed_suggestions",
  "dismissed_ignore_suggestions",
  "budget_config",
  "app_config",
  "user_mappings",
  "day_summaries",
];

async function wipe() {
  await env.DB.batch(
    [...COMPARED, "activity_log", "config_versions", "api_tokens"].map((t) =>
      env.DB.prepare(`DELETE FROM ${t}`),
    ),
  );
}

async function exportZip(): Promise<Uint8Array> {
  const ctx = createExecutionContext();
  const res = await createApp().fetch(new Request("http://localhost/api/v1/data/export"), env, ctx);
  const bytes = new Uint8Array(await res.arrayBuffer());
  await waitOnExecutionContext(ctx);
  expect(res.status).toBe(200);
  return bytes;
}

function preview(bytes: Uint8Array | string, now = NOW, name = "backup.zip", db?: D1Database) {
  const form = new FormData();
  form.set("file", new File([bytes], name, { type: "application/zip" }));
  return call("/api/v1/data/import/preview", {
    method: "POST",
    rawBody: form,
    now,
    env: db ? { DB: db } : {},
  });
}

const commit = (body: Record<string, unknown>, now = NOW) =>
  call("/api/v1/data/import/commit", { method: "POST", body, now });

async function dump(table: string) {
  const { results } = await env.DB.prepare(`SELECT * FROM ${table}`).all<Record<string, unknown>>();
  return results.map((r) => JSON.stringify(r)).sort();
}

async function totals() {
  const out: Record<string, unknown> = {};
  for (const month of MONTHS) {
    const s = await call(`/api/v1/summary?month=${month}`);
    expect(s.status).toBe(200);
    out[month] = {
      spent: s.body.current.total_spending,
      count: s.body.current.spending_count,
      deposits: s.body.current.deposit_total,
      byCategory: s.body.current.by_category,
    };
  }
  return out;
}

async function seedJournal() {
  await seedTx({
    DateFileName: "2026.08.03_10.00_a.eml",
    Amount: 12.34,
    Company: "Cafe",
    Category: "coffee & cafes",
  });
  await seedTx({
    DateFileName: "2026.08.15_11.00_b.eml",
    Amount: 1.005,
    Company: "Gum",
    Category: "groceries",
  });
  await seedTx({
    DateFileName: "2026.09.01_09.00_c.eml",
    Amount: 2500,
    Company: "Employer",
    TransactionType: "deposit",
    Category: "income",
  });
  await seedTx({
    DateFileName: "2026.09.09_09.00_d.eml",
    Amount: 0.1,
    Company: "Tiny",
    Category: "groceries",
  });
  await seedTx({
    DateFileName: "2026.10.02_12.00_e.eml",
    Amount: 99.99,
    Company: "Grocer",
    Category: "groceries",
  });
  await seedTx({
    DateFileName: "2026.10.05_12.00_f.eml",
    Amount: 7.5,
    Company: "Old",
    DeletedAt: "2026-10-06T00:00:00Z",
  });
  const ok = (r: { status: number; text: string }) => expect(r.status, r.text).toBe(200);
  ok(await call("/api/v1/overrides/Cafe", { method: "PUT", body: { category: "Coffee & Cafes" } }));
  ok(
    await call("/api/v1/merchant-aliases/BB%20ROASTERS%20INC", {
      method: "PUT",
      body: { canonical_name: "Blue Bottle Coffee" },
    }),
  );
  ok(await call("/api/v1/ignore-rules", { method: "POST", body: { pattern: "transfer to savings" } }));
  const budget = await call("/api/v1/budget/config?year=2026", {
    method: "PUT",
    body: {
      spending_ceiling: 30000.5,
      categories: { groceries: { target: 6000, input_mode: "monthly", category_type: "variable" } },
      groups: [{ name: "Food", categories: ["groceries"] }],
      targets_version: null,
      groups_version: null,
    },
  });
  ok(budget);
}

beforeEach(wipe);

describe("backup restore: POST /api/v1/data/import/preview and /commit", () => {
  it("export → wipe → preview → commit gives back every table row for row and every month's totals", async () => {
    await seedJournal();
    const before = await totals();
    const rows: Record<string, string[]> = {};
    for (const t of COMPARED) rows[t] = await dump(t);
    const zip = await exportZip();

    await wipe();
    expect((await totals())["2026-10"]).toMatchObject({ spent: 0 });

    const p = await preview(zip);
    expect(p.status).toBe(200);
    expect(p.body.source_kind).toBe("backup_zip");
    expect(p.body.token).toMatch(/^imp_[0-9a-f]{32}$/);
    expect(p.body.counts).toEqual({ total: 6, new: 6, duplicates: 0, invalid: 0 });
    expect(p.body.tables.transactions).toEqual({ total: 6, new: 6, identical: 0, different: 0, invalid: 0 });
    expect(p.body.config).toMatchObject({
      overrides_count: 1,
      merchant_aliases_count: 1,
      budget_years_count: 1,
    });
    expect(p.body.sample_new.map((s: { amount: number }) => s.amount)).toContain(12.34);
    // A preview writes nothing.
    expect(await dump("transactions")).toEqual([]);

    const counter = countingD1(env.DB);
    const c = await call("/api/v1/data/import/commit", {
      method: "POST",
      body: { token: p.body.token, strategy: "skip", apply_config: true },
      now: NOW,
      env: { DB: counter.db },
    });
    expect(c.status).toBe(200);
    expect(c.body).toMatchObject({ inserted: 6, updated: 0, skipped: 0, invalid: 0, config_applied: true });
    // The restore's entry rides in the swap's batch (the rows move from staging in it).
    expectEntryInBatch(counter, "restore_staging");
    expectEntryInBatch(counter, "transactions");
    // auth; every table's stored rows in one batch; the staging rows written in the swap's own
    // batch; then the replaced lists re-read for their R2 backups (no one waits on a restore).
    expect(counter.trips.length).toBeLessThanOrEqual(4);
    expect(counter.trips[1]!.sql.filter((q) => /^select .* from "/.test(q)).length).toBeGreaterThan(20);
    expect(counter.trips[2]!.sql.join(" ")).toMatch(
      /^delete from "restore_staging".*insert into "restore_staging".*insert into "transactions"/is,
    );
    const saved = await env.FILES.get("backups/config/overrides.json");
    expect(((await saved!.json()) as { items: unknown[] }).items).toHaveLength(1);
    for (const t of COMPARED) expect(await dump(t), t).toEqual(rows[t]);
    expect(await totals()).toEqual(before);

    // One ledger entry for the whole restore.
    const ledger = await env.DB.prepare("SELECT operation_id FROM activity_log").all<{
      operation_id: string;
    }>();
    expect(ledger.results.map((r) => r.operation_id)).toEqual(["commitBackupImport"]);

    // The token is spent.
    expectEnvelope(await commit({ token: p.body.token }), 404, "NOT_FOUND");
    // Importing the same backup again finds every row identical.
    const reads = countingD1(env.DB);
    const again = await preview(zip, NOW, "backup.zip", reads.db);
    expect(again.body.tables.transactions).toMatchObject({ new: 0, identical: 6, different: 0 });
    expect(again.body.config.replaced).toEqual(
      expect.arrayContaining([{ table: "overrides", backup_rows: 1, current_rows: 1 }]),
    );
    // auth; every table's stored rows in one batch; the list versions; the stale staging dropped.
    expect(reads.trips).toHaveLength(4);
    expect(reads.trips[1]!.sql.join(" ")).toMatch(/from "transactions"/);
    expect((await commit({ token: again.body.token })).body).toMatchObject({ inserted: 0, skipped: 6 });
  });

  it("preview and commit report the same counts with the same words (a backup made through the doors)", async () => {
    // Hand adds, and alerts no parser reads (each a quarantined email: another table's row).
    for (const [i, company] of ["Corner Bakery", "Kiosk", "Farmers Market"].entries()) {
      const add = await call("/api/v1/transactions", {
        method: "POST",
        body: { date: `2026-10-0${i + 1}`, amount: 4.5 + i, company },
        now: NOW,
      });
      expect(add.status).toBe(200);
    }
    for (const id of ["<q1@x>", "<q2@x>"]) {
      const form = new FormData();
      const raw = buildMime({
        from: "alerts@tangerine.example",
        subject: "Transaction alert",
        messageId: id,
        body: "A purchase of $23.75 was charged to your account at CORNER BAKERY.",
      });
      form.append("file", new File([raw], "alert.eml", { type: "message/rfc822" }));
      const eml = await call("/api/v1/transactions/upload-eml", { method: "POST", rawBody: form, now: NOW });
      expect(eml.body.status, eml.text).toBe("quarantined");
    }
    const zip = await exportZip();
    // One hand add and the two quarantined emails are lost: the backup holds them, the journal not.
    await env.DB.prepare("DELETE FROM transactions WHERE Company = 'Kiosk'").run();
    await env.DB.prepare("DELETE FROM parse_failures").run();

    const p = await preview(zip);
    expect(p.body.counts).toEqual({ total: 3, new: 1, duplicates: 2, invalid: 0 });
    expect(p.body.tables.parse_failures).toMatchObject({ new: 2 });
    const c = await commit({ token: p.body.token, strategy: "skip" });
    expect(c.status).toBe(200);
    // Before: `inserted` counted every table's rows (3: the transaction and the two emails) where
    // the preview said 1 new.
    expect(c.body).toMatchObject({ inserted: 1, updated: 0, skipped: 2, invalid: 0 });
    expect(c.body.inserted).toBe(p.body.counts.new);
    expect(c.body.counts).toEqual(p.body.counts);
    for (const [name, counts] of Object.entries(p.body.tables)) {
      expect(c.body.tables[name], name).toMatchObject(counts as object);
    }
    expect(c.body.tables.parse_failures).toMatchObject({ new: 2, inserted: 2, skipped: 0 });
    expect(c.body.tables.transactions).toMatchObject({ new: 1, identical: 2, inserted: 1, skipped: 2 });
    expect((await call("/api/v1/transactions?month=2026-10", { now: NOW })).body.count).toBe(3);
  });

  it("skip keeps, overwrite replaces, keep_both adds a copy of a row that differs", async () => {
    await seedTx({
      DateFileName: "2026.10.02_12.00_e.eml",
      Amount: 99.99,
      Company: "Grocer",
      Category: "groceries",
    });
    const zip = await exportZip();
    await env.DB.prepare("UPDATE transactions SET Amount = 100, Company = 'Changed'").run();
    const amounts = async () =>
      (
        await env.DB.prepare("SELECT Amount FROM transactions ORDER BY DateFileName").all<{
          Amount: number;
        }>()
      ).results.map((r) => r.Amount);

    const p1 = await preview(zip);
    expect(p1.body.counts).toMatchObject({ new: 0, duplicates: 1 });
    expect(p1.body.tables.transactions).toMatchObject({ identical: 0, different: 1 });
    expect(p1.body.sample_duplicates[0]).toMatchObject({
      amount: 99.99,
      reason: "differs from the stored row",
    });
    expect((await commit({ token: p1.body.token, strategy: "skip" })).body).toMatchObject({
      skipped: 1,
      updated: 0,
    });
    expect(await amounts()).toEqual([100]);

    const p2 = await preview(zip);
    expect((await commit({ token: p2.body.token, strategy: "keep_both" })).body).toMatchObject({
      inserted: 1,
    });
    expect(await amounts()).toEqual([100, 9999]);
    const copy = await env.DB.prepare(
      "SELECT DateFileName, TransactionHash FROM transactions WHERE DateFileName LIKE '%import%'",
    ).first();
    expect(copy).toMatchObject({
      DateFileName: expect.stringMatching(/^2026\.10\.02_12\.00_e_import[0-9a-f]{6}-1\.eml$/),
      TransactionHash: null,
    });
    await env.DB.prepare("DELETE FROM transactions WHERE DateFileName LIKE '%import%'").run();

    const p3 = await preview(zip);
    expect((await commit({ token: p3.body.token, strategy: "overwrite" })).body).toMatchObject({
      updated: 1,
    });
    expect(await amounts()).toEqual([9999]);
  });

  it("a preview older than 15 minutes is gone (410); an unknown token is 404", async () => {
    await seedTx({ DateFileName: "2026.10.02_12.00_e.eml", Amount: 5 });
    const p = await preview(await exportZip(), "2026-10-20T12:00:00.000Z");
    expectEnvelope(await commit({ token: p.body.token }, "2026-10-20T12:16:00.000Z"), 410, "GONE");
    // An abandoned preview's upload is dropped by a later preview.
    const abandoned = await preview(await exportZip(), "2026-10-20T12:00:00.000Z");
    expect(await env.FILES.head(`imports/${abandoned.body.token}.zip`)).not.toBeNull();
    await preview(await exportZip(), "2026-10-20T12:30:00.000Z");
    expect(await env.FILES.head(`imports/${abandoned.body.token}.zip`)).toBeNull();
    expectEnvelope(await commit({ token: "imp_00000000000000000000000000000000" }), 404, "NOT_FOUND");
    expectEnvelope(await commit({ token: "../../etc" }), 404, "NOT_FOUND");
    expectEnvelope(await commit({ token: p.body.token, strategy: "merge" }), 422, "VALIDATION_ERROR");
  });

  it("a backup made before amounts were stored in cents (decimal Amount) restores exactly", async () => {
    const manifest = {
      format: "finance-journal-backup",
      format_version: 1,
      schema_versions: [1, 2, 3, 4, 6],
      counts: {},
    };
    const tx = (file: string, Amount: number, Company: string) => ({
      ForwardedTo: "me@example.com",
      DateFileName: file,
      TransactionHash: `h-${file}`,
      UserId: "default",
      Amount,
      Company,
      TransactionType: "purchase",
      Category: "groceries",
      Date: "09/01/2026 10:00 PST",
      CategoryAudit: { source: "override" },
      Ignored: 0,
      CreatedAt: "2026-09-01T10:00:00Z",
    });
    const zip = zipSync({
      "manifest.json": strToU8(JSON.stringify(manifest)),
      "transactions.json": strToU8(
        JSON.stringify([
          tx("2026.09.01_10.00_a.eml", 19.99, "A"),
          tx("2026.09.02_10.00_b.eml", 1.005, "B"),
          tx("2026.09.03_10.00_c.eml", 0.3, "C"),
          tx("2026.09.04_10.00_d.eml", 1234567.89, "D"),
          { ...tx("2026.09.05_10.00_e.eml", 1, "E"), Amount: "lots" },
        ]),
      ),
      // Secrets in a hand-made zip are never read.
      "api_tokens.json": strToU8(JSON.stringify([{ id: "t", label: "x", token_hash: "h", created_at: "x" }])),
      "auth_settings.json": strToU8(JSON.stringify([{ id: "owner", password_hash: "p", updated_at: "x" }])),
    });
    const p = await preview(zip);
    expect(p.status).toBe(200);
    expect(p.body.counts).toEqual({ total: 5, new: 4, duplicates: 0, invalid: 1 });
    expect(p.body.sample_invalid[0]).toMatchObject({ company: "E", reason: "Amount is not a number" });
    expect(p.body.tables).not.toHaveProperty("api_tokens");
    expect((await commit({ token: p.body.token })).body).toMatchObject({ inserted: 4, invalid: 1 });
    const stored = await env.DB.prepare("SELECT Company, Amount FROM transactions ORDER BY Company").all();
    expect(stored.results).toEqual([
      { Company: "A", Amount: 1999 },
      { Company: "B", Amount: 101 },
      { Company: "C", Amount: 30 },
      { Company: "D", Amount: 123456789 },
    ]);
    const s = await call("/api/v1/summary?month=2026-09");
    expect(s.body.current.total_spending).toBe(1234589.19);
    expect(await dump("api_tokens")).toEqual([]);
    expect(
      (await env.DB.prepare("SELECT COUNT(*) AS n FROM auth_settings WHERE password_hash = 'p'").first())?.n,
    ).toBe(0);
  });

  it("a CSV from the search export imports its transactions (new rows in, changed rows updated in place)", async () => {
    await seedTx({
      DateFileName: "2026.09.01_09.00_c.eml",
      Amount: 2500,
      Company: "Employer",
      TransactionType: "deposit",
      Category: "income",
    });
    await seedTx({
      DateFileName: "2026.09.09_09.00_d.eml",
      Amount: 0.1,
      Company: "=SUM(A1)",
      Category: "groceries",
      Comment: 'say "hi", ok',
    });
    await seedTx({
      DateFileName: "2026.10.02_12.00_e.eml",
      Amount: 1234.56,
      Company: "Grocer",
      Category: "groceries",
      Body: "the email",
    });
    const before = await totals();
    const csv = await call(
      "/api/v1/transactions/export?from=2026-08&to=2026-10&include_deleted=true&include_ignored=true",
    );
    expect(csv.status).toBe(200);
    const columns = "Company, Amount, Category, Comment, UserId, DateFileName, ForwardedTo";
    const rows = async () =>
      (await env.DB.prepare(`SELECT ${columns} FROM transactions ORDER BY DateFileName`).all()).results;
    const seeded = await rows();
    await env.DB.prepare("DELETE FROM transactions WHERE DateFileName < '2026.10'").run();
    await env.DB.prepare("UPDATE transactions SET Amount = 1, Company = 'Changed'").run();

    const p = await preview(csv.text, NOW, "transactions.csv");
    expect(p.status).toBe(200);
    expect(p.body.source_kind).toBe("search_csv");
    expect(p.body.counts).toEqual({ total: 3, new: 2, duplicates: 1, invalid: 0 });
    expect(p.body.config).toMatchObject({ categories_count: null, overrides_count: null });
    const c = await commit({ token: p.body.token, strategy: "overwrite" });
    expect(c.body).toMatchObject({ inserted: 2, updated: 1, config_applied: false });
    expect(await rows()).toEqual(seeded);
    expect(await totals()).toEqual(before);
    // The update kept what a CSV does not carry.
    expect(
      (await env.DB.prepare("SELECT Body FROM transactions WHERE Company = 'Grocer'").first())?.Body,
    ).toBe("the email");
  });

  it("a restore past one staging batch fills full batches, and its last staging rows ride in the swap", async () => {
    const lines = Array.from(
      { length: 500 },
      (_, i) => `2026.10.01_10.00_${String(i).padStart(3, "0")}.eml,me@x,${i + 1}.25`,
    );
    const reads = countingD1(env.DB);
    const body = `date_file_name,forwarded_to,amount\n${lines.join("\n")}\n`;
    const p = await preview(body, NOW, "x.csv", reads.db);
    expect(p.body.counts).toMatchObject({ total: 500, new: 500 });
    // auth, the recipient's user mapping, every table's rows, the versions, the stale staging
    expect(reads.trips).toHaveLength(5);
    const counter = countingD1(env.DB);
    const c = await call("/api/v1/data/import/commit", {
      method: "POST",
      body: { token: p.body.token, strategy: "skip", apply_config: false },
      now: NOW,
      env: { DB: counter.db },
    });
    expect(c.body).toMatchObject({ inserted: 500 });
    const n = await env.DB.prepare("SELECT COUNT(*) AS n, SUM(Amount) AS cents FROM transactions").first();
    expect(n).toEqual({ n: 500, cents: (500 * 501 * 100) / 2 + 500 * 25 });
    expect(await dump("restore_staging")).toEqual([]);
    // 42 staging inserts of 12 rows: the first batch clears the token's rows and writes 39, the
    // swap writes the last 3 and moves all 500.
    const staging = counter.trips.filter((t) => t.sql.some((q) => /^insert into "restore_staging"/.test(q)));
    expect(staging).toHaveLength(2);
    expect(staging[0]!.sql[0]).toMatch(/^delete from "restore_staging"/);
    expect(staging[0]!.sql).toHaveLength(40);
    expect(staging[1]!.sql.filter((q) => /^insert into "restore_staging"/.test(q))).toHaveLength(3);
    expect(staging[1]!.sql.join(" ")).toMatch(/INSERT INTO "transactions"/);
  });

  it("a CSV that is not a transactions export is a 422", async () => {
    expectEnvelope(await preview("a,b\n1,2\n", NOW, "x.csv"), 422, "VALIDATION_ERROR");
    expectEnvelope(
      await preview('date_file_name,forwarded_to,amount\n"open', NOW, "x.csv"),
      422,
      "VALIDATION_ERROR",
    );
    const p = await preview(
      "date_file_name,forwarded_to,amount\n2026.10.01_10.00_x.eml,me@x,lots\n",
      NOW,
      "x.csv",
    );
    expect(p.body.counts).toEqual({ total: 1, new: 0, duplicates: 0, invalid: 1 });
    expect(p.body.sample_invalid[0].reason).toBe("amount is not a number");
  });

  it("bad files get the 422 envelope, never a 500", async () => {
    const cases: [string, Uint8Array | string][] = [
      ["not a zip", "hello, this is not a zip"],
      ["no manifest", zipSync({ "transactions.json": strToU8("[]") })],
      [
        "wrong manifest",
        zipSync({ "manifest.json": strToU8(JSON.stringify({ format: "other", format_version: 1 })) }),
      ],
      [
        "future version",
        zipSync({
          "manifest.json": strToU8(JSON.stringify({ format: "finance-journal-backup", format_version: 9 })),
        }),
      ],
      [
        "table not an array",
        zipSync({
          "manifest.json": strToU8(JSON.stringify({ format: "finance-journal-backup", format_version: 1 })),
          "transactions.json": strToU8('{"a":1}'),
        }),
      ],
      [
        "broken JSON",
        zipSync({
          "manifest.json": strToU8(JSON.stringify({ format: "finance-journal-backup", format_version: 1 })),
          "overrides.json": strToU8("[{"),
        }),
      ],
    ];
    for (const [what, bytes] of cases) {
      const res = await preview(bytes);
      expect(res.status, what).toBe(422);
      expectEnvelope(res, 422, "VALIDATION_ERROR");
    }
    const noFile = await call("/api/v1/data/import/preview", { method: "POST", rawBody: new FormData() });
    expectEnvelope(noFile, 422, "VALIDATION_ERROR");
    expectEnvelope(await commit({}), 422, "VALIDATION_ERROR");
  });

  it("is refused in demo mode", async () => {
    const form = new FormData();
    form.set("file", new File(["x"], "b.zip"));
    const res = await call("/api/v1/data/import/preview", {
      method: "POST",
      rawBody: form,
      env: { DEMO_MODE: "true" },
    });
    expectEnvelope(res, 405, "METHOD_NOT_ALLOWED");
    expectEnvelope(
      await call("/api/v1/data/import/commit", {
        method: "POST",
        body: { token: "x" },
        env: { DEMO_MODE: "true" },
      }),
      405,
      "METHOD_NOT_ALLOWED",
    );
  });
});

describe("a restore of a backup with many stored files, in bounded steps (issue 36)", () => {
  const HALF = { d1Queries: PLAN_LIMITS.paid.d1Queries / 2, operations: PLAN_LIMITS.paid.operations / 2 };
  const N = 520;

  /** A format 2 backup of N transactions, each pointing at its own raw email (named by its hash). */
  async function manyFiles() {
    await seedTx({ DateFileName: "2026.10.02_12.00_t.eml", Amount: 5, Company: "Shop" });
    const exported = unzipSync(await exportZip());
    const [template] = JSON.parse(new TextDecoder().decode(exported["transactions.json"]!));
    const files: Record<string, Uint8Array> = {};
    const rows = [];
    for (let n = 0; n < N; n++) {
      const bytes = strToU8(`From: bank@example.com\r\nSubject: Alert ${n}\r\n\r\nYou spent ${n}\r\n`);
      const hex = Array.from(new Uint8Array(await crypto.subtle.digest("SHA-256", bytes)), (b) =>
        b.toString(16).padStart(2, "0"),
      ).join("");
      const key = `emails/2026/10/${hex.slice(0, 16)}.eml`;
      files[`files/${key}`] = bytes;
      const name = `2026.10.02_12.00_${String(n).padStart(4, "0")}.eml`;
      rows.push({ ...template, DateFileName: name, TransactionHash: `h${n}`, FileName: key });
    }
    // The rows come before the files they point to (as the export writes them).
    const entries = {
      "manifest.json": exported["manifest.json"]!,
      "transactions.json": strToU8(JSON.stringify(rows)),
      ...files,
    };
    await wipe();
    return { zip: zipSync(entries, { level: 0 }), keys: rows.map((r) => r.FileName as string) };
  }

  it("520 raw emails: the rows at once, the files across steps, each invocation within half the Paid budget", async () => {
    const { zip, keys } = await manyFiles();
    const staged = await preview(zip);
    expect(staged.status, staged.text).toBe(200);
    expect(staged.body.files).toMatchObject({ emails: N, refused: [] });
    const sent: QueueMessage[] = [];
    const queue = { send: async (m: QueueMessage) => void sent.push(m) } as unknown as Queue<unknown>;
    const ctx = createExecutionContext();
    const inv = perInvocation({ ...env, JOBS: queue } as Env);
    const res = await createApp({ clock: () => new Date(NOW) }).fetch(
      new Request("http://localhost/api/v1/data/import/commit", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ token: staged.body.token }),
      }),
      inv.env,
      ctx,
    );
    const body = (await res.json()) as Record<string, any>;
    await waitOnExecutionContext(ctx);
    // On the old code this one request wrote every file: N R2 writes in one invocation.
    expect(res.status, JSON.stringify(body)).toBe(200);
    expect(inv.counts.operations).toBeLessThanOrEqual(HALF.operations);
    expect(inv.counts.d1Queries).toBeLessThanOrEqual(HALF.d1Queries);
    expect(body.inserted).toBe(N);
    expect(body.files_later).toMatchObject({ status: "running", files_done: FILES_PER_STEP, files_total: N });
    expect((await env.DB.prepare("SELECT COUNT(*) AS n FROM transactions").first<{ n: number }>())!.n).toBe(
      N,
    );
    const running = await call("/api/v1/data/import/files/current", { now: NOW });
    expect(running.body).toMatchObject({ status: "running", files_done: FILES_PER_STEP, files_total: N });
    let steps = 0;
    while (sent.length) {
      const step = perInvocation({ ...env, JOBS: queue } as Env);
      await runRestoreFilesStep(step.env, sent.shift()!, () => new Date(NOW));
      steps++;
      expect(step.counts.operations).toBeLessThanOrEqual(HALF.operations);
      expect(step.counts.d1Queries).toBeLessThanOrEqual(HALF.d1Queries);
    }
    expect(steps).toBe(Math.ceil(N / FILES_PER_STEP) - 1);
    const done = await call("/api/v1/data/import/files/current", { now: NOW });
    expect(done.body).toMatchObject({ status: "done", files_done: N, files_total: N, error: null });
    const heads = await Promise.all(keys.map((k) => env.FILES.head(k)));
    expect(heads.filter((h) => !h)).toHaveLength(0);
    const last = await env.FILES.get(keys[N - 1]!);
    expect(await last!.text()).toContain(`You spent ${N - 1}`);
    // Nothing kept: the staged upload and the steps' copy are gone.
    expect((await env.FILES.list({ prefix: "restores/" })).objects).toEqual([]);
    expect(await env.FILES.head(`imports/${staged.body.token}.zip`)).toBeNull();
  });
});
