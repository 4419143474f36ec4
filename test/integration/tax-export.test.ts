// GET /api/v1/tax-pack/export: the zip's exact file list, CSV contents, receipts and email text.
import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { unzipSync } from "fflate";
import { beforeEach, describe, expect, it } from "vitest";
import { createApp } from "../../src/app";
import { getDb } from "../../src/db";
import { attachments, transactions } from "../../src/db/schema";
import { resetState } from "../helpers/auth";
import { call } from "../helpers/http";
import { clearTransactions, seedReceipts, seedTx } from "../helpers/seed";
import { receiptFixture } from "../fixtures/receipts";
import type { Env } from "../../src/env";
import { runTaxBuildStep } from "../../src/domains/tax/export-steps";
import type { QueueMessage } from "../../src/jobs/messages";
import { PLAN_LIMITS, perInvocation } from "../helpers/limits";

async function download(year: number) {
  const ctx = createExecutionContext();
  const res = await createApp().fetch(
    new Request(`http://localhost/api/v1/tax-pack/export?year=${year}`),
    env,
    ctx,
  );
  const bytes = new Uint8Array(await res.arrayBuffer());
  await waitOnExecutionContext(ctx);
  return { res, bytes };
}

async function attach(txId: string, name: string, type: string) {
  const fd = new FormData();
  fd.append("file", new File([receiptFixture(name)], name, { type }));
  fd.append("tx_id", txId);
  const res = await call("/api/v1/attachments", { method: "POST", rawBody: fd });
  expect(res.status, res.text).toBe(200);
  return res.body.id as string;
}

beforeEach(async () => {
  await resetState();
  await clearTransactions();
  await env.DB.batch(
    ["attachments", "tax_overrides", "tax_mapping"].map((t) => env.DB.prepare(`DELETE FROM ${t}`)),
  );
});

describe("GET /api/v1/tax-pack/export", () => {
  it("streams summary.csv, one CSV per line, receipts and email text under escaped names", async () => {
    const gift = await seedTx({
      DateFileName: "2025.03.01_10.00_a.eml",
      Category: "Charitable Giving",
      Amount: 50,
      Company: '=HYPERLINK("x")/../Food Bank',
    });
    const doc = await seedTx({
      DateFileName: "2025.04.01_10.00_b.eml",
      Category: "Health Care",
      Amount: 20.5,
      Company: "Dr. Ström",
      Subject: "Purchase alert",
      Body: "You spent $20.50 at Dr. Ström.",
    });
    const stmt = await seedTx({
      DateFileName: "2025.04.02_00.00_stmt_x.pdf",
      Category: "Therapy",
      Amount: 80,
      Company: "Clinic",
    });
    await getDb(env.DB)
      .update(transactions)
      .set({ StatementSource: "stmt_abc", FileName: null })
      .where(eq(transactions.DateFileName, "2025.04.02_00.00_stmt_x.pdf"));
    const pets = await seedTx({
      DateFileName: "2025.05.01_10.00_c.eml",
      Category: "Pets",
      Amount: 7,
      Company: "Vet",
    });
    const out = await seedTx({
      DateFileName: "2025.06.01_10.00_d.eml",
      Category: "Moving",
      Amount: 999,
      Company: "Movers",
    });
    await seedTx({
      DateFileName: "2026.01.01_10.00_e.eml",
      Category: "Moving",
      Amount: 1,
      Company: "Next year",
    });
    const jpg = await attach(gift, "receipt.jpg", "image/jpeg");
    const pdf = await attach(gift, "receipt-text.pdf", "application/pdf");
    expect(
      (
        await call("/api/v1/tax-pack/items", {
          method: "POST",
          body: { tx_id: pets, mode: "include", line_key: "other" },
        })
      ).status,
    ).toBe(204);
    expect(
      (await call("/api/v1/tax-pack/items", { method: "POST", body: { tx_id: out, mode: "exclude" } }))
        .status,
    ).toBe(204);

    const { res, bytes } = await download(2025);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/zip");
    expect(res.headers.get("content-disposition")).toBe('attachment; filename="tax-pack-2025.zip"');
    const files = unzipSync(bytes);
    const text = (n: string) => new TextDecoder().decode(files[n]);
    const [first, second] = [jpg, pdf].sort();
    const ext = (id: string) => (id === jpg ? "jpg" : "pdf");
    const giftStem = "evidence/charitable/2025-03-01_001_hyperlink-x-food-bank";
    expect(Object.keys(files).sort()).toEqual(
      [
        "summary.csv",
        ...["charitable", "medical", "childcare", "moving", "tuition", "dues", "instalments", "other"].map(
          (k) => `lines/${k}.csv`,
        ),
        `${giftStem}_${first}.${ext(first!)}`,
        `${giftStem}_${second}.${ext(second!)}`,
        "evidence/medical/2025-04-01_001_dr-strom_email.txt",
        "evidence/other/2025-05-01_001_vet_email.txt",
      ].sort(),
    );
    expect(text("summary.csv")).toBe(
      [
        "line,label,total,transactions,receipt,statement,email,excluded,note",
        "charitable,Charitable donations,50.00,1,1,0,0,0,",
        "medical,Medical expenses,100.50,2,0,1,1,0,Only amounts not reimbursed by insurance qualify; a claim may use any 12-month period ending in the tax year.",
        "childcare,Child care expenses,0.00,0,0,0,0,0,",
        "moving,Moving expenses,0.00,0,0,0,0,1,",
        "tuition,Tuition and education,0.00,0,0,0,0,0,",
        "dues,Union and professional dues,0.00,0,0,0,0,0,",
        "instalments,Tax paid by instalments,0.00,0,0,0,0,0,",
        "other,Other claimable,7.00,1,0,0,1,0,",
        "total,All lines,157.50,4,,,,,",
        "",
      ].join("\r\n"),
    );
    expect(text("summary.csv")).not.toMatch(/Line \d|Schedule|T778/);
    expect(text("lines/charitable.csv")).toBe(
      "date,company,category,amount,evidence,manual,evidence_files,tx_id\r\n" +
        `2025-03-01,"'=HYPERLINK(""x"")/../Food Bank",Charitable Giving,50.00,receipt,no,${giftStem}_${first}.${ext(first!)} ${giftStem}_${second}.${ext(second!)},${gift}\r\n`,
    );
    expect(text("lines/medical.csv")).toBe(
      "date,company,category,amount,evidence,manual,evidence_files,tx_id\r\n" +
        `2025-04-01,Dr. Ström,Health Care,20.50,email,no,evidence/medical/2025-04-01_001_dr-strom_email.txt,${doc}\r\n` +
        `2025-04-02,Clinic,Therapy,80.00,statement,no,,${stmt}\r\n`,
    );
    expect(text("lines/other.csv")).toContain(
      `2025-05-01,Vet,Pets,7.00,email,yes,evidence/other/2025-05-01_001_vet_email.txt,${pets}`,
    );
    expect(text("lines/moving.csv")).toBe(
      "date,company,category,amount,evidence,manual,evidence_files,tx_id\r\n",
    );
    expect(text("evidence/medical/2025-04-01_001_dr-strom_email.txt")).toContain(
      "Subject: Purchase alert\n\nYou spent $20.50 at Dr. Ström.",
    );
    const [stored] = await getDb(env.DB).select().from(attachments).where(eq(attachments.id, jpg));
    const original = new Uint8Array(await (await env.FILES.get(stored!.r2_key))!.arrayBuffer());
    expect(files[`${giftStem}_${jpg}.jpg`]).toEqual(original);
  });

  it("gives an empty pack for an empty year and refuses a bad year", async () => {
    const { res, bytes } = await download(2030);
    expect(res.status).toBe(200);
    const files = unzipSync(bytes);
    expect(Object.keys(files)).toHaveLength(8);
    expect((await download(1990)).res.status).toBe(422);
  });
});

describe("the tax pack past 200 evidence files, built in bounded steps (issue 36)", () => {
  const HALF = { d1Queries: PLAN_LIMITS.paid.d1Queries / 2, operations: PLAN_LIMITS.paid.operations / 2 };

  /** `receipts` rows with one stored receipt each, then `emails` rows whose evidence is their alert. */
  async function bulkYear(receipts: number, emails: number) {
    await env.DB.prepare(
      `WITH RECURSIVE i(n) AS (SELECT 0 UNION ALL SELECT n + 1 FROM i WHERE n + 1 < ?)
       INSERT INTO transactions (ForwardedTo, DateFileName, TransactionHash, Amount, Category, CategoryAudit,
         TransactionType, Company, FileName, Subject, Body)
       SELECT 'me@x', '2025.03.01_10.00_' || substr('0000' || n, -5) || '.eml', 'h' || n, 1000 + n, 'Health Care',
         '{"source":"override"}', 'purchase', 'Clinic ' || n,
         CASE WHEN n >= ? THEN 'emails/2025/03/' || n || '.eml' END, 'Alert ' || n, 'You spent at clinic ' || n FROM i`,
    )
      .bind(receipts + emails, receipts)
      .run();
    await seedReceipts(env.DB, receipts);
  }

  it("212 receipts and 12 alerts: GET answers 202, each invocation within half the Paid budget, the zip complete", async () => {
    await bulkYear(212, 12);
    const sent: QueueMessage[] = [];
    const queue = { send: async (m: QueueMessage) => void sent.push(m) } as unknown as Queue<unknown>;
    const invoke = async (path: string) => {
      const ctx = createExecutionContext();
      const inv = perInvocation({ ...env, JOBS: queue } as Env);
      const res = await createApp().fetch(new Request(`http://localhost${path}`), inv.env, ctx);
      const bytes = new Uint8Array(await res.arrayBuffer());
      await waitOnExecutionContext(ctx);
      return { res, bytes, counts: inv.counts };
    };
    // On the old code this one request read every receipt and alert: 224 reads in one invocation.
    const first = await invoke("/api/v1/tax-pack/export?year=2025");
    expect(first.res.status).toBe(202);
    expect(first.counts.operations).toBeLessThanOrEqual(HALF.operations);
    const started = JSON.parse(new TextDecoder().decode(first.bytes));
    expect(started).toMatchObject({ status: "running", year: 2025, files_total: 224 });
    expect(started.files_done).toBeGreaterThan(0);
    expect(started.files_done).toBeLessThan(224);
    // Asking again while it runs: the same build (202), not a second one.
    const again = await call("/api/v1/tax-pack/export?year=2025", { env: { JOBS: queue } });
    expect(again.status).toBe(202);
    expect(again.body.job_id).toBe(started.job_id);
    // A small year still streams in its request meanwhile.
    expect((await call("/api/v1/tax-pack/export?year=2024", { env: { JOBS: queue } })).status).toBe(200);
    let steps = 0;
    while (sent.length) {
      const inv = perInvocation({ ...env, JOBS: queue } as Env);
      await runTaxBuildStep(inv.env, sent.shift()!);
      steps++;
      expect(inv.counts.d1Queries).toBeLessThanOrEqual(HALF.d1Queries);
      expect(inv.counts.operations).toBeLessThanOrEqual(HALF.operations);
    }
    expect(steps).toBeGreaterThanOrEqual(1);
    const done = await call("/api/v1/tax-pack/export/jobs/current");
    expect(done.body).toMatchObject({ status: "done", files_done: 224, files_total: 224, missing: 0 });
    expect(done.body.download_url).toBe(`/api/v1/tax-pack/export/jobs/${done.body.job_id}/file`);
    const file = await invoke(done.body.download_url);
    expect(file.res.status).toBe(200);
    expect(file.res.headers.get("content-disposition")).toBe('attachment; filename="tax-pack-2025.zip"');
    const files = unzipSync(file.bytes);
    const names = Object.keys(files);
    expect(names.filter((n) => n.endsWith(".jpg"))).toHaveLength(212);
    expect(names.filter((n) => n.endsWith("_email.txt"))).toHaveLength(12);
    expect(names).toContain("summary.csv");
    const receipt = names.find((n) => n.endsWith(`_att_${(7).toString(16).padStart(16, "0")}.jpg`))!;
    expect(new TextDecoder().decode(files[receipt])).toBe("receipt 7");
    const mail = names.find((n) => n.includes("_clinic-217_email.txt"))!;
    expect(new TextDecoder().decode(files[mail])).toContain("You spent at clinic 217");
    expect(new TextDecoder().decode(files["lines/medical.csv"]!).trim().split("\r\n")).toHaveLength(225);
    expect((await env.FILES.list({ prefix: "exports/steps/" })).objects).toEqual([]);
    expect((await call(`/api/v1/tax-pack/export/jobs/nope/file`)).status).toBe(404);
  });
});
