// Issue 23 point 2: the backup is the whole journal. Export → wipe (D1 rows AND R2 files) → import
// gives identical rows, identical file bytes and the same tax pack; a format-1 backup still imports.
import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { unzipSync } from "fflate";
import { beforeEach, describe, expect, it } from "vitest";
import { createApp } from "../../src/app";
import { call } from "../helpers/http";
import { seedTx } from "../helpers/seed";
import { handBackup } from "../helpers/zip";
import { buildMime } from "../fixtures/emails/builders";
import { receiptFixture } from "../fixtures/receipts";

const NOW = "2025-06-10T12:00:00.000Z";
const DATA = [
  "transactions",
  "attention_queue",
  "parse_failures",
  "attachments",
  "statements",
  "statement_rows",
  "tax_overrides",
  "activity_log",
];
const PREFIXES = ["attachments/", "statements/", "emails/"];

async function get(path: string) {
  const ctx = createExecutionContext();
  const res = await createApp().fetch(new Request(`http://localhost${path}`), env, ctx);
  const bytes = new Uint8Array(await res.arrayBuffer());
  await waitOnExecutionContext(ctx);
  expect(res.status).toBe(200);
  return bytes;
}

async function sha(bytes: Uint8Array) {
  const d = await crypto.subtle.digest("SHA-256", bytes);
  return Array.from(new Uint8Array(d), (b) => b.toString(16).padStart(2, "0")).join("");
}

async function dump(table: string) {
  const { results } = await env.DB.prepare(`SELECT * FROM ${table}`).all();
  return results.map((r) => JSON.stringify(r)).sort();
}

/** Every stored object under the journal's file prefixes: key → sha256 of its bytes. */
async function objects() {
  const out: Record<string, string> = {};
  for (const prefix of PREFIXES)
    for (const o of (await env.FILES.list({ prefix })).objects) {
      const obj = await env.FILES.get(o.key);
      out[o.key] = await sha(new Uint8Array(await obj!.arrayBuffer()));
    }
  return out;
}

async function wipe() {
  await env.DB.batch(DATA.map((t) => env.DB.prepare(`DELETE FROM ${t}`)));
  for (const prefix of PREFIXES)
    for (const o of (await env.FILES.list({ prefix })).objects) await env.FILES.delete(o.key);
}

async function restore(zip: Uint8Array) {
  const form = new FormData();
  form.set("file", new File([zip], "backup.zip", { type: "application/zip" }));
  const p = await call("/api/v1/data/import/preview", { method: "POST", rawBody: form, now: NOW });
  expect(p.status, p.text).toBe(200);
  const c = await call("/api/v1/data/import/commit", {
    method: "POST",
    body: { token: p.body.token },
    now: NOW,
  });
  expect(c.status, c.text).toBe(200);
  return { p: p.body, c: c.body };
}

async function attach(txId: string | null, name: string, type: string) {
  const fd = new FormData();
  fd.append("file", new File([receiptFixture(name)], name, { type }));
  if (txId) fd.append("tx_id", txId);
  const res = await call("/api/v1/attachments", { method: "POST", rawBody: fd, now: NOW });
  expect(res.status, res.text).toBe(200);
  return res.body.id as string;
}

const entries = (zip: Uint8Array) =>
  Object.fromEntries(Object.entries(unzipSync(zip)).map(([k, v]) => [k, Array.from(v).join(",")]));

beforeEach(wipe);

describe("the backup holds the files; a restore brings them back", () => {
  it("export → wipe → import: identical rows, identical file bytes, the same tax pack", async () => {
    const alert = buildMime({
      from: "CIBC <mailbox.noreply@cibc.com>",
      to: "carlos@example.com",
      date: "Tue, 15 Apr 2025 14:30:00 -0700",
      body: "You've recently made a purchase with your CIBC Costco World Mastercard ending in 2210 for $64.19 at SAVE-ON-FOODS #2281.\nCIBC",
    });
    const form = new FormData();
    form.append("file", new File([alert], "alert.eml", { type: "message/rfc822" }));
    const eml = await call("/api/v1/transactions/upload-eml", { method: "POST", rawBody: form, now: NOW });
    expect(eml.body.status, eml.text).toBe("created");
    const gift = await seedTx({
      DateFileName: "2025.03.01_10.00_a.eml",
      Category: "Charitable Giving",
      Amount: 50,
      Company: "Food Bank",
    });
    await attach(gift, "receipt.jpg", "image/jpeg");
    await attach(gift, "receipt-text.pdf", "application/pdf");
    await attach(null, "receipt.png", "image/png");
    const sfd = new FormData();
    sfd.append(
      "file",
      new File(["Posted Date,Payee,Address,Amount\n2025-03-02,CORNER COFFEE,Town,4.50\n"], "card.csv", {
        type: "text/csv",
      }),
    );
    expect((await call("/api/v1/statements/upload", { method: "POST", rawBody: sfd, now: NOW })).status).toBe(
      200,
    );

    const tables: Record<string, string[]> = {};
    for (const t of DATA.filter((t) => t !== "activity_log")) tables[t] = await dump(t);
    const files = await objects();
    expect(Object.keys(files).filter((k) => k.startsWith("attachments/"))).toHaveLength(3);
    expect(Object.keys(files).filter((k) => k.startsWith("emails/"))).toHaveLength(1);
    const taxBefore = entries(await get("/api/v1/tax-pack/export?year=2025"));
    expect(Object.keys(taxBefore).filter((k) => k.startsWith("evidence/"))).not.toHaveLength(0);

    const zip = await get("/api/v1/data/export");
    const names = Object.keys(unzipSync(zip));
    expect(names[0]).toBe("manifest.json");
    expect(names.filter((n) => n.startsWith("files/attachments/"))).toHaveLength(3);
    expect(names.filter((n) => n.startsWith("files/statements/"))).toHaveLength(1);
    expect(names.filter((n) => n.startsWith("files/emails/"))).toHaveLength(1);

    await wipe();
    expect(await objects()).toEqual({});
    const { p, c } = await restore(zip);
    expect(p.format_version).toBe(2);
    expect(p.files).toEqual({ attachments: 3, statements: 1, emails: 1, refused: [] });
    expect(c.files).toMatchObject({ attachments: 3, statements: 1, emails: 1 });

    for (const t of Object.keys(tables)) expect(await dump(t), t).toEqual(tables[t]);
    expect(await objects()).toEqual(files);
    expect(entries(await get("/api/v1/tax-pack/export?year=2025"))).toEqual(taxBefore);
    // A receipt opens again, byte for byte.
    const att = (await call("/api/v1/attachments")).body.attachments as { id: string; sha256: string }[];
    const jpg = att.find((a) => a.sha256 === files[Object.keys(files).find((k) => k.endsWith(".jpg"))!]);
    const file = await call(`/api/v1/attachments/${jpg!.id}/file`);
    expect(file.status).toBe(200);
    expect(file.headers.get("content-type")).toBe("image/jpeg");
  }, 120_000);

  it("a file whose bytes do not match its row's sha256 is refused, and so is its row", async () => {
    const id = await attach(null, "receipt.png", "image/png");
    const zip = await get("/api/v1/data/export");
    const all = unzipSync(zip);
    all[`files/attachments/${id}`] = receiptFixture("receipt.jpg") as Uint8Array<ArrayBuffer>;
    const { zipSync } = await import("fflate");
    await wipe();
    const { p, c } = await restore(zipSync(all));
    expect(p.files.refused).toEqual([
      { name: `files/attachments/${id}`, reason: "the file's bytes do not match its sha256" },
    ]);
    expect(c.files.attachments).toBe(0);
    expect((await call("/api/v1/attachments")).body.count).toBe(0);
  }, 60_000);

  it("a backup made before files were included (format 1, manifest last) still imports", async () => {
    // The layout the previous build wrote: tables, then a format-1 manifest; rows name their keys.
    const old = handBackup(
      {
        "transactions.json": [
          {
            ForwardedTo: "me@example.com",
            DateFileName: "2025.04.15_14.30_0123456789ab.eml",
            TransactionHash: "h1",
            UserId: "default",
            Amount: 64.19,
            Company: "SAVE-ON-FOODS",
            FileName: "emails/2025/04/0123456789abcdef.eml",
            Ignored: 0,
            CreatedAt: "2025-04-15T21:30:00Z",
          },
        ],
        "attachments.json": [
          {
            id: "att_0123456789abcdef",
            original_filename: "receipt.jpg",
            content_type: "image/jpeg",
            size_bytes: 1234,
            sha256: "d".repeat(64),
            kind: "receipt",
            r2_key: `attachments/2025-04/${"d".repeat(64)}.jpg`,
            parse_status: "unparsed",
            created_at: "2025-04-16T00:00:00Z",
            updated_at: "2025-04-16T00:00:00Z",
          },
        ],
      },
      { note: "Stored names as in SPEC.md; raw emails stay in R2 under emails/ (FileName)." },
    );
    const { p, c } = await restore(old);
    expect(p.format_version).toBe(1);
    expect(p.files).toEqual({ attachments: 0, statements: 0, emails: 0, refused: [] });
    // The transactions' counts, as the preview's; the attachment row is its table's.
    expect(c).toMatchObject({ inserted: 1, invalid: 0 });
    expect(c.tables.attachments).toMatchObject({ new: 1, inserted: 1 });
    const row = await env.DB.prepare("SELECT r2_key FROM attachments").first<{ r2_key: string }>();
    expect(row?.r2_key).toBe(`attachments/2025-04/${"d".repeat(64)}.jpg`);
    const tx = await env.DB.prepare("SELECT Amount, FileName FROM transactions").first();
    expect(tx).toEqual({ Amount: 6419, FileName: "emails/2025/04/0123456789abcdef.eml" });
  });
});
