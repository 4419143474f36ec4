import { env } from "cloudflare:test";
import { beforeEach, describe, expect, it } from "vitest";
import { countingD1 } from "../../bench/lib/d1-count";
import { call, expectEnvelope } from "../helpers/http";
import { expectEntryInBatch } from "../helpers/ledger-batch";
import { seedTx } from "../helpers/seed";
import { receiptFixture } from "../fixtures/receipts";

const NOW = "2024-10-20T12:00:00.000Z";

function form(bytes: Uint8Array, name: string, type: string, fields: Record<string, string> = {}) {
  const fd = new FormData();
  fd.append("file", new File([bytes], name, { type }));
  for (const [k, v] of Object.entries(fields)) fd.append(k, v);
  return fd;
}

const upload = (fd: FormData, now = NOW, db?: D1Database) =>
  call("/api/v1/attachments", { method: "POST", rawBody: fd, now, env: db ? { DB: db } : {} });

async function sha256Hex(data: Uint8Array | string) {
  const bytes = typeof data === "string" ? new TextEncoder().encode(data) : data;
  const d = await crypto.subtle.digest("SHA-256", bytes);
  return Array.from(new Uint8Array(d), (b) => b.toString(16).padStart(2, "0")).join("");
}

async function objects() {
  return (await env.FILES.list({ prefix: "attachments/" })).objects.map((o) => o.key);
}

async function reset() {
  await env.DB.batch(
    ["attachments", "transactions", "activity_log", "app_config"].map((t) =>
      env.DB.prepare(`DELETE FROM ${t}`),
    ),
  );
  for (const key of await objects()) await env.FILES.delete(key);
}

describe("upload: each accepted type, our content type, files by month under the hash", () => {
  beforeEach(reset);

  it.each([
    ["receipt.jpg", "image/jpeg", "image/jpeg"],
    ["receipt.png", "image/png", "image/png"],
    ["receipt.webp", "image/webp", "image/webp"],
    ["receipt-text.pdf", "application/pdf", "application/pdf"],
  ])("%s is stored and served back inline", async (name, declared, stored) => {
    const bytes = receiptFixture(name);
    const res = await upload(form(bytes, name, declared));
    expect(res.status, res.text).toBe(200);
    const hash = await sha256Hex(bytes);
    expect(res.body).toMatchObject({
      original_filename: name,
      content_type: stored,
      size_bytes: bytes.byteLength,
      sha256: hash,
      kind: "receipt",
      parse_status: "unparsed",
      tx_id: null,
    });
    expect(res.body.id).toBe(`att_${(await sha256Hex(`${hash}\n${name}`)).slice(0, 16)}`);
    const [key] = await objects();
    expect(key).toMatch(new RegExp(`^attachments/2024-10/${hash}\\.(jpg|png|webp|pdf)$`));
    const file = await call(`/api/v1/attachments/${res.body.id}/file`);
    expect(file.status).toBe(200);
    expect(file.headers.get("content-type")).toBe(stored);
    expect(file.headers.get("x-content-type-options")).toBe("nosniff");
    expect(file.headers.get("content-disposition")).toMatch(/^inline; /);
  });

  it("HEIC from a real encoder (heif-enc) is accepted; it is stored as a JPEG (converted in the Worker)", async () => {
    const bytes = receiptFixture("receipt.heic");
    const res = await upload(form(bytes, "IMG_0042.HEIC", "image/heic"));
    expect(res.status, res.text).toBe(200);
    expect(res.body.content_type).toBe("image/jpeg");
    const file = await call(`/api/v1/attachments/${res.body.id}/file`);
    expect(file.headers.get("content-type")).toBe("image/jpeg");
  });

  it("a hostile filename never reaches the R2 key, and reaches Content-Disposition only escaped", async () => {
    const name = 'a"b;\\ Set-Cookie: x=1 reçu.jpg';
    const res = await upload(form(receiptFixture("receipt.jpg"), name, "image/jpeg"));
    expect(res.status, res.text).toBe(200);
    const [key] = await objects();
    expect(key).not.toMatch(/re|cookie/i);
    const file = await call(`/api/v1/attachments/${res.body.id}/file`);
    const cd = file.headers.get("content-disposition")!;
    expect(file.headers.get("set-cookie")).toBeNull();
    expect(cd).toContain("filename*=UTF-8''");
    expect(cd).toContain("re%C3%A7u.jpg");
    expect(cd).not.toMatch(/[\r\n]/);
    expect(cd.split('filename="')[1]!.split('"')[0]).not.toMatch(/["\\;]/);
  });
});

describe("upload: refusals (extension AND declared type AND magic bytes, 10 MB)", () => {
  beforeEach(reset);

  it("a renamed executable (right extension and declared type, wrong bytes) is refused", async () => {
    const exe = new Uint8Array([0x4d, 0x5a, 0x90, 0x00, 0x03, 0x00, 0x00, 0x00, 0x04, 0x00, 0x00, 0x00]);
    const res = await upload(form(exe, "receipt.jpg", "image/jpeg"));
    expect(expectEnvelope(res, 415, "UNSUPPORTED_MEDIA_TYPE").error).toMatch(/not a JPEG/);
    expect(await objects()).toEqual([]);
  });

  it("a wrong extension is refused even with good bytes", async () => {
    const res = await upload(form(receiptFixture("receipt.png"), "receipt.gif", "image/png"));
    expect(expectEnvelope(res, 415, "UNSUPPORTED_MEDIA_TYPE").error).toMatch(/extension/);
  });

  it("a declared type that disagrees with the extension is refused", async () => {
    const res = await upload(form(receiptFixture("receipt.jpg"), "receipt.jpg", "image/png"));
    expect(expectEnvelope(res, 415, "UNSUPPORTED_MEDIA_TYPE").error).toMatch(/declared type image\/png/);
  });

  it("a PNG named .jpg is refused (the bytes decide between accepted types too)", async () => {
    const res = await upload(form(receiptFixture("receipt.png"), "receipt.jpg", "image/jpeg"));
    expectEnvelope(res, 415, "UNSUPPORTED_MEDIA_TYPE");
  });

  it("more than 10 MB is 413; exactly 10 MB is accepted", async () => {
    const big = new Uint8Array(10 * 1024 * 1024 + 1);
    big.set([0xff, 0xd8, 0xff, 0xe0]);
    expectEnvelope(await upload(form(big, "big.jpg", "image/jpeg")), 413, "PAYLOAD_TOO_LARGE");
    const ok = await upload(form(big.subarray(0, 10 * 1024 * 1024), "max.jpg", "image/jpeg"));
    expect(ok.status, ok.text).toBe(200);
  });

  it("an unknown kind, a missing file and an empty file are 422", async () => {
    const badKind = await upload(
      form(receiptFixture("receipt.jpg"), "r.jpg", "image/jpeg", { kind: "selfie" }),
    );
    expect(expectEnvelope(badKind, 422, "VALIDATION_ERROR").details.errors[0].loc).toEqual(["body", "kind"]);
    const fd = new FormData();
    fd.append("kind", "receipt");
    expectEnvelope(await upload(fd), 422, "VALIDATION_ERROR");
    expectEnvelope(await upload(form(new Uint8Array(0), "e.jpg", "image/jpeg")), 422, "VALIDATION_ERROR");
  });
});

describe("upsert, link, list, delete", () => {
  beforeEach(reset);

  it("re-uploading the same file under the same name upserts; another name is another attachment", async () => {
    const bytes = receiptFixture("receipt.jpg");
    const first = await upload(form(bytes, "r.jpg", "image/jpeg"));
    const again = await upload(
      form(bytes, "r.jpg", "image/jpeg", { kind: "document" }),
      "2024-11-02T08:00:00.000Z",
    );
    expect(again.body.id).toBe(first.body.id);
    expect(again.body.created_at).toBe(first.body.created_at);
    expect(again.body.kind).toBe("document");
    const other = await upload(form(bytes, "copy.jpg", "image/jpeg"));
    expect(other.body.id).not.toBe(first.body.id);
    const all = await call("/api/v1/attachments");
    expect(all.body.count).toBe(2);
    // The same bytes share one object; deleting one row keeps the other's file.
    expect(await objects()).toHaveLength(1);
    // Whether another row still uses the object is read in the delete's own batch (3 round trips).
    const counter = countingD1(env.DB);
    await call(`/api/v1/attachments/${other.body.id}`, { method: "DELETE", env: { DB: counter.db } });
    expect(counter.trips.at(-1)!.sql.join(" ")).toMatch(
      /delete from "attachments".*select "id" from "attachments"/s,
    );
    expect(await objects()).toHaveLength(1);
    expect((await call(`/api/v1/attachments/${first.body.id}/file`)).status).toBe(200);
  });

  it("upload with tx_id links at once; the transaction lists it; an unknown tx is 404", async () => {
    const txId = await seedTx({
      DateFileName: "2024.10.14_19.42_a.eml",
      Amount: 30.55,
      Company: "Corner Bistro",
    });
    const res = await upload(form(receiptFixture("receipt.png"), "r.png", "image/png", { tx_id: txId }));
    expect(res.body.tx_id).toBe(txId);
    const listed = await call(`/api/v1/transactions/${txId}/attachments`);
    expect(listed.body).toMatchObject({ count: 1, attachments: [{ id: res.body.id, tx_id: txId }] });
    const missing = await seedTx({ DateFileName: "2024.10.15_10.00_b.eml" });
    await env.DB.prepare("DELETE FROM transactions WHERE DateFileName = '2024.10.15_10.00_b.eml'").run();
    const bad = await upload(form(receiptFixture("receipt.jpg"), "x.jpg", "image/jpeg", { tx_id: missing }));
    expectEnvelope(bad, 404, "NOT_FOUND");
    expect(await objects()).toHaveLength(1);
  });

  it("a JSON cell hand-edited into text that is not JSON reads as absent (200), never a 500", async () => {
    const txId = await seedTx({ DateFileName: "2024.10.14_19.42_j.eml", Amount: 30.55, Company: "Bistro" });
    const a = (await upload(form(receiptFixture("receipt.png"), "r.png", "image/png", { tx_id: txId }))).body;
    // What no door writes, but a hand-edited database may hold: drizzle's JSON mode threw on it.
    await env.DB.batch([
      env.DB.prepare(
        "UPDATE attachments SET parse_status = 'parsed', parse_json = '{merchant: oops' WHERE id = ?",
      ).bind(a.id),
      env.DB.prepare(
        "UPDATE transactions SET CategoryAudit = 'not json', ExtractionAudit = '{', TransactionContext = 'x' WHERE DateFileName = ?",
      ).bind("2024.10.14_19.42_j.eml"),
    ]);
    const list = await call("/api/v1/attachments");
    expect(list.status, list.text).toBe(200);
    expect(list.body.attachments.find((x: { id: string }) => x.id === a.id)).toMatchObject({
      parse_status: "parsed",
      parse_json: null,
    });
    const byTx = await call(`/api/v1/transactions/${txId}/attachments`);
    expect(byTx.status, byTx.text).toBe(200);
    expect(byTx.body.attachments[0]).toMatchObject({ id: a.id, parse_json: null });
    const detail = await call(`/api/v1/transactions/${txId}/detail`);
    expect(detail.status, detail.text).toBe(200);
    expect(detail.body.transaction ?? detail.body).toMatchObject({
      company: "Bistro",
      category_audit: null,
      extraction_audit: null,
      context: null,
    });
  });

  it("deleting its transaction for good leaves the receipt unfiled, never lost", async () => {
    const txId = await seedTx({ DateFileName: "2024.10.16_09.00_gone.eml", Amount: 12.5 });
    const a = (await upload(form(receiptFixture("receipt.png"), "r.png", "image/png", { tx_id: txId }))).body;
    expect(a.tx_id).toBe(txId);
    await call(`/api/v1/transactions/${txId}/delete`, { method: "POST", body: { deleted: true } });
    expect((await call(`/api/v1/transactions/${txId}`, { method: "DELETE" })).status).toBe(200);
    const after = await call("/api/v1/attachments?unlinked=true");
    expect(after.body.attachments.map((x: { id: string }) => x.id)).toContain(a.id);
    expect(after.body.attachments.find((x: { id: string }) => x.id === a.id).tx_id).toBeNull();
    expect((await call(`/api/v1/attachments/${a.id}/file`)).status).toBe(200);
  });

  it("link, unlink, filters, and the ledger: link is reversible through /activity revert", async () => {
    const txId = await seedTx({ DateFileName: "2024.10.14_19.42_a.eml" });
    const put = countingD1(env.DB);
    const a = (await upload(form(receiptFixture("receipt.jpg"), "a.jpg", "image/jpeg"), NOW, put.db)).body;
    // Each write's ledger entry rides in the write's own batch.
    expectEntryInBatch(put, "attachments");
    const d = (
      await upload(form(receiptFixture("receipt-text.pdf"), "d.pdf", "application/pdf", { kind: "document" }))
    ).body;
    expect((await call("/api/v1/attachments?unlinked=true")).body.count).toBe(2);
    const linking = countingD1(env.DB);
    const linked = await call(`/api/v1/attachments/${a.id}/link`, {
      method: "POST",
      body: { tx_id: txId },
      now: NOW,
      env: { DB: linking.db },
    });
    expect(linked.status, linked.text).toBe(200);
    expectEntryInBatch(linking, "attachments");
    expect(linked.body.tx_id).toBe(txId);
    expect((await call("/api/v1/attachments?unlinked=true")).body.attachments.map((x: any) => x.id)).toEqual([
      d.id,
    ]);
    expect((await call("/api/v1/attachments?unlinked=false")).body.attachments.map((x: any) => x.id)).toEqual(
      [a.id],
    );
    expect((await call("/api/v1/attachments?kind=document")).body.attachments.map((x: any) => x.id)).toEqual([
      d.id,
    ]);

    const ledger = await call("/api/v1/activity?operation=linkAttachment");
    const entry = ledger.body.entries[0];
    expect(entry).toMatchObject({
      resource_id: a.id,
      before: { tx_id: null },
      after: { tx_id: txId },
      reversible: true,
    });
    const undo = countingD1(env.DB);
    const reverted = await call(`/api/v1/activity/${entry.id}/revert`, {
      method: "POST",
      env: { DB: undo.db },
    });
    expect(reverted.status, reverted.text).toBe(200);
    expectEntryInBatch(undo, "attachments");
    expect((await call(`/api/v1/transactions/${txId}/attachments`)).body.count).toBe(0);
    await call(`/api/v1/attachments/${a.id}/link`, { method: "POST", body: { tx_id: txId } });
    const unlinking = countingD1(env.DB);
    const unlinked = await call(`/api/v1/attachments/${a.id}/link`, {
      method: "POST",
      body: { tx_id: null },
      env: { DB: unlinking.db },
    });
    expect(unlinked.body.tx_id).toBeNull();
    expectEntryInBatch(unlinking, "attachments");

    const uploads = await call("/api/v1/activity?operation=uploadAttachment");
    expect(JSON.stringify(uploads.body)).toContain(a.id);

    expectEnvelope(
      await call(`/api/v1/attachments/${a.id}/link`, { method: "POST", body: { tx_id: "bm90LWEtdHg" } }),
      422,
      "VALIDATION_ERROR",
    );
    expectEnvelope(
      await call(`/api/v1/attachments/att_0000000000000000/link`, { method: "POST", body: { tx_id: null } }),
      404,
      "NOT_FOUND",
    );
    // A missing attachment is named before a missing transaction; a deleted transaction is 404.
    const gone = btoa("me@example.com\n2024.01.01_00.00_gone.eml").replaceAll("=", "");
    const noAtt = await call(`/api/v1/attachments/att_0000000000000000/link`, {
      method: "POST",
      body: { tx_id: gone },
    });
    expect(expectEnvelope(noAtt, 404, "NOT_FOUND").error).toMatch(/Attachment/);
    const noTx = await call(`/api/v1/attachments/${a.id}/link`, { method: "POST", body: { tx_id: gone } });
    expect(expectEnvelope(noTx, 404, "NOT_FOUND").error).toMatch(/Transaction/);
    // Undoing the unlink once its transaction is in the trash: 404, the attachment stays unfiled.
    const unlinkEntry = unlinked.headers.get("x-activity-id")!;
    expect(
      (await call(`/api/v1/transactions/${txId}/delete`, { method: "POST", body: { deleted: true } })).status,
    ).toBe(200);
    const relink = await call(`/api/v1/activity/${unlinkEntry}/revert`, { method: "POST" });
    expect(expectEnvelope(relink, 404, "NOT_FOUND").error).toMatch(/Transaction/);
    const unfiled = (await call("/api/v1/attachments?unlinked=true")).body.attachments.map((x: any) => x.id);
    expect(unfiled).toContain(a.id);
  });

  it("delete removes the row and the R2 object, and is journaled", async () => {
    const a = (await upload(form(receiptFixture("receipt.webp"), "w.webp", "image/webp"))).body;
    expect(await objects()).toHaveLength(1);
    const counter = countingD1(env.DB);
    const del = await call(`/api/v1/attachments/${a.id}`, { method: "DELETE", env: { DB: counter.db } });
    expect(del.body).toEqual({ id: a.id, status: "deleted" });
    expectEntryInBatch(counter, "attachments");
    expect(await objects()).toEqual([]);
    expectEnvelope(await call(`/api/v1/attachments/${a.id}/file`), 404, "NOT_FOUND");
    expectEnvelope(await call(`/api/v1/attachments/${a.id}`, { method: "DELETE" }), 404, "NOT_FOUND");
    const ledger = await call("/api/v1/activity?operation=deleteAttachment");
    expect(JSON.stringify(ledger.body)).toContain(a.id);
  });

  it("demo mode refuses uploads", async () => {
    const res = await call("/api/v1/attachments", {
      method: "POST",
      rawBody: form(receiptFixture("receipt.jpg"), "r.jpg", "image/jpeg"),
      env: { DEMO_MODE: "true" },
    });
    expect(res.status).toBe(405);
  });
});
