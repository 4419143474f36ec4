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
import { clearTransactions, seedTx } from "../helpers/seed";
import { receiptFixture } from "../fixtures/receipts";

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
