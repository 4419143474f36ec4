// Issue 26 findings 1, 2, 8, 9 and 10 on the restore path: a crafted backup cannot plant a page,
// name an R2 object, bomb the Worker, half-restore, drop a change made meanwhile, or reset settings.
import { env } from "cloudflare:test";
import { beforeEach, describe, expect, it } from "vitest";
import { call, expectEnvelope } from "../helpers/http";
import { deflateBomb, handBackup, rawZip } from "../helpers/zip";
import { receiptFixture } from "../fixtures/receipts";

const NOW = "2025-06-10T12:00:00.000Z";
const XSS = "<img src=x onerror=alert(document.cookie)>";

function preview(bytes: Uint8Array, now = NOW) {
  const form = new FormData();
  form.set("file", new File([bytes], "backup.zip", { type: "application/zip" }));
  return call("/api/v1/data/import/preview", { method: "POST", rawBody: form, now });
}
const commit = (body: Record<string, unknown>, extra: { env?: Record<string, unknown> } = {}) =>
  call("/api/v1/data/import/commit", { method: "POST", body, now: NOW, ...extra });

async function restore(bytes: Uint8Array, applyConfig = true) {
  const p = await preview(bytes);
  expect(p.status, p.text).toBe(200);
  const c = await commit({ token: p.body.token, apply_config: applyConfig });
  return { p, c };
}

const attachmentRow = (over: Record<string, unknown>) => ({
  id: "att_00000000000000aa",
  original_filename: "receipt.png",
  content_type: "image/png",
  size_bytes: 10,
  sha256: "a".repeat(64),
  kind: "receipt",
  r2_key: "attachments/2025-06/x.png",
  parse_status: "unparsed",
  created_at: "2025-06-01T00:00:00.000Z",
  updated_at: "2025-06-01T00:00:00.000Z",
  ...over,
});

const count = async (table: string) =>
  Number((await env.DB.prepare(`SELECT COUNT(*) AS n FROM ${table}`).first<{ n: number }>())?.n);

beforeEach(async () => {
  await env.DB.batch(
    [
      "transactions",
      "attachments",
      "statements",
      "categories",
      "config_versions",
      "app_config",
      "activity_log",
      "restore_staging",
      "alert_templates",
    ].map((t) => env.DB.prepare(`DELETE FROM ${t}`)),
  );
});

describe("finding 1: a crafted backup cannot serve a page from the journal's origin", () => {
  it("an attachment row naming backups/config/categories.json as text/html is never served as it", async () => {
    const zip = handBackup({
      "categories.json": [{ name: XSS, sort_order: 0, created_at: "2025-01-01T00:00:00Z" }],
      "attachments.json": [
        attachmentRow({ content_type: "text/html", r2_key: "backups/config/categories.json" }),
        attachmentRow({
          id: "att_00000000000000bb",
          content_type: "image/png",
          r2_key: "backups/config/categories.json",
        }),
      ],
    });
    const { p, c } = await restore(zip);
    expect(c.status, c.text).toBe(200);
    // The text/html row is refused in words; the other gets a key the server made.
    expect(p.body.tables.attachments).toMatchObject({ total: 2, invalid: 1 });
    expect(p.body.sample_invalid).toBeDefined();
    const rows = await env.DB.prepare("SELECT id, r2_key, content_type FROM attachments ORDER BY id").all();
    for (const r of rows.results as { r2_key: string; content_type: string }[]) {
      expect(r.r2_key).toMatch(/^attachments\/2025-06\/a{64}\.png$/);
      expect(r.content_type).toBe("image/png");
    }
    // The planted categories list exists in R2 (the restore wrote it), yet no file URL serves it.
    expect(await env.FILES.head("backups/config/categories.json")).not.toBeNull();
    for (const id of ["att_00000000000000aa", "att_00000000000000bb"]) {
      const file = await call(`/api/v1/attachments/${id}/file`);
      expect(file.status).toBe(404);
      expect(file.text).not.toContain("onerror");
    }
  });

  it("a file in the backup is typed by its own bytes: PNG bytes under a text/html row are served as a sandboxed PNG", async () => {
    const png = new Uint8Array([
      0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 0, 0, 0, 1, 0, 0,
      0, 1,
    ]);
    const bytes = new Uint8Array([
      ...png,
      ...new TextEncoder().encode(`<html><script>alert(1)</script>${XSS}`),
    ]);
    const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
    const sha = Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("");
    const zip = handBackup(
      {
        "attachments.json": [
          attachmentRow({ sha256: sha, content_type: "text/html", r2_key: "backups/config/categories.json" }),
        ],
        "files/attachments/att_00000000000000aa": bytes,
      },
      { format_version: 2 },
    );
    const { p, c } = await restore(zip, false);
    expect(c.status, c.text).toBe(200);
    expect(p.body.files).toMatchObject({ attachments: 1, refused: [] });
    const row = await env.DB.prepare("SELECT r2_key, content_type FROM attachments").first();
    expect(row).toEqual({ r2_key: `attachments/2025-06/${sha}.png`, content_type: "image/png" });
    const file = await call("/api/v1/attachments/att_00000000000000aa/file");
    expect(file.status).toBe(200);
    expect(file.headers.get("content-type")).toBe("image/png");
    expect(file.headers.get("content-security-policy")).toBe(
      "sandbox; default-src 'none'; frame-ancestors 'none'",
    );
  });

  it("every file response is inert: CSP sandbox, nosniff, typed by its bytes, non-images downloaded", async () => {
    const fd = new FormData();
    fd.append("file", new File([receiptFixture("receipt.png")], "r.png", { type: "image/png" }));
    const up = await call("/api/v1/attachments", { method: "POST", rawBody: fd, now: NOW });
    expect(up.status, up.text).toBe(200);
    const img = await call(`/api/v1/attachments/${up.body.id}/file`);
    expect(img.headers.get("content-security-policy")).toBe(
      "sandbox; default-src 'none'; frame-ancestors 'none'",
    );
    expect(img.headers.get("x-content-type-options")).toBe("nosniff");
    expect(img.headers.get("content-type")).toBe("image/png");
    expect(img.headers.get("content-disposition")).toMatch(/^inline; /);
    // A row (say from an older build) whose object holds HTML under a valid-looking key and type.
    const key = `attachments/2025-06/${"b".repeat(64)}.png`;
    await env.FILES.put(key, `<html><script>alert(1)</script>${XSS}</html>`);
    await env.DB.prepare(
      "INSERT INTO attachments (id, original_filename, content_type, size_bytes, sha256, kind, r2_key, created_at, updated_at) VALUES ('att_00000000000000cc', 'page.html', 'text/html', 10, ?, 'receipt', ?, 'x', 'x')",
    )
      .bind("b".repeat(64), key)
      .run();
    const html = await call("/api/v1/attachments/att_00000000000000cc/file");
    expect(html.status).toBe(200);
    expect(html.headers.get("content-type")).toBe("application/octet-stream");
    expect(html.headers.get("content-disposition")).toMatch(/^attachment; /);
    expect(html.headers.get("content-security-policy")).toBe(
      "sandbox; default-src 'none'; frame-ancestors 'none'",
    );
    expect(html.headers.get("x-content-type-options")).toBe("nosniff");
  });

  it("a statement file is a sandboxed, unsniffed download", async () => {
    const fd = new FormData();
    const csv = "Posted Date,Payee,Address,Amount\n2025-03-02,CORNER COFFEE,Town,4.50\n";
    fd.append("file", new File([csv], "card.csv", { type: "text/csv" }));
    const up = await call("/api/v1/statements/upload", { method: "POST", rawBody: fd, now: NOW });
    expect(up.status, up.text).toBe(200);
    const id = up.body.statement_id ?? up.body.id;
    const dl = await call(`/api/v1/statements/${id}/download`);
    expect(dl.status).toBe(200);
    expect(dl.headers.get("content-security-policy")).toBe(
      "sandbox; default-src 'none'; frame-ancestors 'none'",
    );
    expect(dl.headers.get("x-content-type-options")).toBe("nosniff");
    expect(dl.headers.get("content-disposition")).toMatch(/^attachment; /);
  });
});

describe("finding 2: a restored row cannot read or delete another R2 object", () => {
  it("a row naming backups/auth/state.json is re-keyed: GET and DELETE never touch the marker", async () => {
    await env.FILES.put("backups/auth/state.json", '{"password_set":true}');
    const { c } = await restore(
      handBackup({
        "attachments.json": [
          attachmentRow({ content_type: "image/jpeg", r2_key: "backups/auth/state.json" }),
        ],
        "statements.json": [
          {
            id: "stmt_00000000000000aa",
            filename: "s.pdf",
            file_kind: "pdf",
            file_sha256: "c".repeat(64),
            r2_key: "backups/auth/state.json",
            institution: "RBC",
            account_type: "chequing",
            uploaded_at: "2025-06-01T00:00:00Z",
            updated_at: "2025-06-01T00:00:00Z",
          },
        ],
      }),
      false,
    );
    expect(c.status, c.text).toBe(200);
    const att = await env.DB.prepare("SELECT r2_key FROM attachments").first<{ r2_key: string }>();
    expect(att?.r2_key).toBe(`attachments/2025-06/${"a".repeat(64)}.jpg`);
    const st = await env.DB.prepare("SELECT r2_key FROM statements").first<{ r2_key: string }>();
    expect(st?.r2_key).toBe(`statements/rbc/${"c".repeat(64)}.pdf`);
    const get = await call("/api/v1/attachments/att_00000000000000aa/file");
    expect(get.status).toBe(404);
    expect(get.text).not.toContain("password_set");
    expect((await call("/api/v1/statements/stmt_00000000000000aa/download")).status).toBe(404);
    const del = await call("/api/v1/attachments/att_00000000000000aa", { method: "DELETE" });
    expect(del.status, del.text).toBe(200);
    await call("/api/v1/statements/stmt_00000000000000aa", { method: "DELETE" });
    expect(await env.FILES.head("backups/auth/state.json")).not.toBeNull();
  });

  it("a raw-email pointer outside emails/ is dropped; one inside is kept", async () => {
    const tx = (file: string, FileName: string) => ({
      ForwardedTo: "me@example.com",
      DateFileName: file,
      Amount: 1,
      Ignored: 0,
      FileName,
      CreatedAt: "2025-06-01T00:00:00Z",
    });
    await restore(
      handBackup({
        "transactions.json": [
          tx("2025.06.01_10.00_a.eml", "backups/auth/state.json"),
          tx("2025.06.01_10.00_b.eml", "emails/2025/06/0123456789abcdef.eml"),
          tx("2025.06.01_10.00_c.eml", "emails/../backups/auth/state.json"),
        ],
      }),
      false,
    );
    const rows = await env.DB.prepare("SELECT FileName FROM transactions ORDER BY DateFileName").all();
    expect(rows.results.map((r) => r.FileName)).toEqual([null, "emails/2025/06/0123456789abcdef.eml", null]);
  });
});

describe("finding 8: a zip bomb is refused in words, fast", () => {
  it("a ~1 MB zip whose transactions.json inflates to 1 GiB: 413 within a second or two", async () => {
    const bomb = deflateBomb(1024);
    expect(bomb.length).toBeLessThan(1.1 * 1024 * 1024);
    const zip = rawZip([
      {
        name: "manifest.json",
        method: 0,
        data: new TextEncoder().encode('{"format":"finance-journal-backup","format_version":1}'),
        size: 54,
      },
      { name: "transactions.json", method: 8, data: bomb, size: 1024 * 1024 * 1024 },
    ]);
    const started = Date.now();
    const res = await preview(zip);
    const took = Date.now() - started;
    expect(expectEnvelope(res, 413, "PAYLOAD_TOO_LARGE").error).toMatch(/decompression bomb|inflates/);
    // Under a second on an idle machine; the bound leaves room for a shared test machine.
    expect(took).toBeLessThan(5000);
  });

  it("an entry no backup has (a bomb named junk.bin) is never inflated", async () => {
    const zip = rawZip([
      {
        name: "manifest.json",
        method: 0,
        data: new TextEncoder().encode('{"format":"finance-journal-backup","format_version":1}'),
        size: 54,
      },
      { name: "junk.bin", method: 8, data: deflateBomb(1024), size: 1024 * 1024 * 1024 },
    ]);
    const res = await preview(zip);
    expect(res.status, res.text).toBe(200);
  });
});

describe("finding 9: a restore is all-or-nothing", () => {
  const rows = (n: number) =>
    Array.from({ length: n }, (_, i) => ({
      ForwardedTo: "me@example.com",
      DateFileName: `2025.06.01_10.00_${String(i).padStart(5, "0")}.eml`,
      Amount: 1 + i / 100,
      Company: `Shop ${i}`,
      Ignored: 0,
      CreatedAt: "2025-06-01T00:00:00Z",
    }));

  it("killed midway (D1 fails on the third large batch): the journal is as it was; a retry restores all", async () => {
    const p = await preview(handBackup({ "transactions.json": rows(1500) }));
    expect(p.status, p.text).toBe(200);
    let big = 0;
    const dying = new Proxy(env.DB, {
      get(target, prop) {
        if (prop === "batch")
          return async (stmts: D1PreparedStatement[]) => {
            if (stmts.length >= 10 && ++big === 3) throw new Error("D1_ERROR: the isolate was killed");
            return target.batch(stmts);
          };
        const v = Reflect.get(target, prop);
        return typeof v === "function" ? v.bind(target) : v;
      },
    });
    const killed = await commit({ token: p.body.token }, { env: { DB: dying } });
    expect(killed.status).toBe(500);
    expect(await count("transactions")).toBe(0);
    const again = await commit({ token: p.body.token });
    expect(again.status, again.text).toBe(200);
    expect(again.body.inserted).toBe(1500);
    expect(await count("transactions")).toBe(1500);
    expect(await count("restore_staging")).toBe(0);
  }, 60_000);

  it("a category added after the preview is not dropped: the restore is refused whole (409)", async () => {
    const zip = handBackup({
      "transactions.json": rows(3),
      "categories.json": [{ name: "groceries", sort_order: 0, created_at: "2025-01-01T00:00:00Z" }],
    });
    const p = await preview(zip);
    expect(p.body.config.replaced).toEqual(
      expect.arrayContaining([{ table: "categories", backup_rows: 1, current_rows: 0 }]),
    );
    const added = await call("/api/v1/categories", { method: "POST", body: { name: "Pets during restore" } });
    expect(added.status, added.text).toBeLessThan(300);
    const c = await commit({ token: p.body.token, apply_config: true });
    expect(expectEnvelope(c, 409, "CONFLICT").error).toMatch(/categories changed/);
    expect(await count("transactions")).toBe(0);
    const names = await env.DB.prepare("SELECT name FROM categories").all<{ name: string }>();
    expect(names.results.map((r) => r.name)).toContain("Pets during restore");
  });

  it("an invalid field in the backup's settings is refused in words, never a reset to defaults", async () => {
    await call("/api/v1/config", { method: "PUT", body: { object_backup_prefix: "mine/" } });
    const zip = handBackup({
      "app_config.json": [
        { id: "default", data: { object_backup_prefix: 42 }, version: 3, updated_at: "2025-01-01T00:00:00Z" },
      ],
    });
    const p = await preview(zip);
    expect(p.body.config.problems.join(" ")).toMatch(/object_backup_prefix/);
    const c = await commit({ token: p.body.token, apply_config: true });
    expect(expectEnvelope(c, 422, "VALIDATION_ERROR").error).toMatch(/object_backup_prefix/);
    expect((await call("/api/v1/config")).body.object_backup_prefix).toBe("mine/");
  });

  it("by default the settings stay: only the data comes back", async () => {
    const zip = handBackup({
      "transactions.json": rows(2),
      "categories.json": [{ name: "from backup", sort_order: 0, created_at: "2025-01-01T00:00:00Z" }],
    });
    await call("/api/v1/categories", { method: "POST", body: { name: "Mine" } });
    const p = await preview(zip);
    const c = await commit({ token: p.body.token });
    expect(c.body).toMatchObject({ inserted: 2, config_applied: false });
    const names = await env.DB.prepare("SELECT name FROM categories").all<{ name: string }>();
    expect(names.results.map((r) => r.name)).toContain("Mine");
    expect(names.results.map((r) => r.name)).not.toContain("from backup");
  });
});

describe("finding 10: pixel bombs and bidi names", () => {
  function png(width: number, height: number): Uint8Array {
    const b = new Uint8Array(64);
    b.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);
    b.set(new TextEncoder().encode("IHDR"), 12);
    new DataView(b.buffer).setUint32(16, width);
    new DataView(b.buffer).setUint32(20, height);
    b.set([8, 6, 0, 0, 0], 24);
    return b;
  }

  it("a PNG declaring 100000 × 100000 pixels is refused (413, in words); a normal one is stored", async () => {
    const fd = new FormData();
    fd.append("file", new File([png(100_000, 100_000)], "bomb.png", { type: "image/png" }));
    const res = await call("/api/v1/attachments", { method: "POST", rawBody: fd, now: NOW });
    expect(expectEnvelope(res, 413, "PAYLOAD_TOO_LARGE").error).toMatch(/100000 × 100000 pixels.*limit/);
    expect(await count("attachments")).toBe(0);
  });

  it("U+202E and other bidi/control characters are stripped from names, on upload and on restore", async () => {
    const fd = new FormData();
    fd.append(
      "file",
      new File([receiptFixture("receipt.png")], "invoice\u202Egnp.exe\u200F.png", { type: "image/png" }),
    );
    const res = await call("/api/v1/attachments", { method: "POST", rawBody: fd, now: NOW });
    expect(res.status, res.text).toBe(200);
    expect(res.body.original_filename).toBe("invoicegnp.exe.png");
    await restore(
      handBackup({ "attachments.json": [attachmentRow({ original_filename: "bill\u202Efdp.png\u2066" })] }),
      false,
    );
    const row = await env.DB.prepare(
      "SELECT original_filename FROM attachments WHERE id = 'att_00000000000000aa'",
    ).first();
    expect(row?.original_filename).toBe("billfdp.png");
  });
});

describe("a crafted backup cannot plant text that is not JSON, or JSON out of shape, in a JSON column", () => {
  it("a required JSON column out of JSON or out of shape refuses its row; an optional one is dropped and the row kept; every read answers", async () => {
    const zip = handBackup({
      "transactions.json": [
        {
          ForwardedTo: "a@b.c",
          DateFileName: "2025.06.01_10.00_x.eml",
          Amount: 12.5,
          Company: "KIOSK",
          Category: "misc",
          TransactionType: "purchase",
          Date: "2025-06-01",
          CategoryAudit: "{not json",
          ExtractionAudit: { parser: "rbc" },
          TransactionContext: "nope",
          CreatedAt: "2025-06-01T00:00:00Z",
        },
      ],
      "statement_layouts.json": [
        {
          id: "lay_0000000000000001",
          name: "Bank",
          institution: "Bank",
          fingerprint: "date|description|amount",
          header: [],
          marks: { nope: true },
          created_at: "2025-01-01T00:00:00Z",
          updated_at: "2025-01-01T00:00:00Z",
        },
      ],
      "alert_templates.json": [
        {
          id: "tpl_0000000000000001",
          name: "Bank",
          institution: "Bank",
          sender_domain: "bank.example",
          subject_words: "[]",
          pattern: "{bad",
          transaction_type: "purchase",
          example: "e",
          match_count: 0,
          created_at: "2025-01-01T00:00:00Z",
          updated_at: "2025-01-01T00:00:00Z",
        },
      ],
    });
    const { p, c } = await restore(zip);
    expect(p.body.tables.alert_templates).toMatchObject({ total: 1, invalid: 1 });
    expect(p.body.tables.statement_layouts).toMatchObject({ total: 1, invalid: 1 });
    expect(p.body.tables.transactions).toMatchObject({ total: 1, new: 1, invalid: 0 });
    expect(c.status, c.text).toBe(200);
    expect(await count("alert_templates")).toBe(0);
    const stored = await env.DB.prepare(
      "SELECT CategoryAudit, ExtractionAudit, TransactionContext FROM transactions",
    ).first();
    expect(stored).toEqual({
      CategoryAudit: null,
      ExtractionAudit: '{"parser":"rbc"}',
      TransactionContext: null,
    });
    for (const path of [
      "/api/v1/transactions?month=2025-06",
      "/api/v1/templates",
      "/api/v1/journal?month=2025-06",
    ]) {
      const r = await call(path, { now: NOW });
      expect(r.status, `${path}: ${r.text}`).toBe(200);
    }
  });
});

// Issue 35 finding 8: a restore carries data only. Storage keys are derived, trust is never
// restored, and settings that weaken security keep the journal's own values.
describe("issue 35: a restore carries data only", () => {
  const SHA = `0123456789abcdef${"0".repeat(48)}`;
  const ignored = (id: string, raw_key: string) => ({
    id,
    status: "ignored",
    reason: "not_a_transaction_alert",
    reason_text: "Not a transaction alert",
    raw_key,
    raw_sha256: SHA,
    received_at: "2025-06-01T00:00:00Z",
    updated_at: "2025-06-01T00:00:00Z",
  });

  beforeEach(async () => {
    await env.DB.batch(["ignored_emails", "sender_trust"].map((t) => env.DB.prepare(`DELETE FROM ${t}`)));
  });

  it("an ignored email's raw_key is kept only when it is the pipeline's key for that row", async () => {
    await restore(
      handBackup({
        "ignored_emails.json": [
          ignored("ign_a", "backups/auth/state.json"),
          ignored("ign_b", "emails/2025/06/fedcba9876543210.eml"),
          ignored("ign_c", "emails/2025/06/0123456789abcdef.eml"),
          ignored("ign_d", "attachments/2025-06/x.png"),
        ],
      }),
      false,
    );
    const rows = await env.DB.prepare("SELECT id, raw_key FROM ignored_emails ORDER BY id").all();
    expect(rows.results).toEqual([
      { id: "ign_a", raw_key: null },
      { id: "ign_b", raw_key: null },
      { id: "ign_c", raw_key: "emails/2025/06/0123456789abcdef.eml" },
      { id: "ign_d", raw_key: null },
    ]);
  });

  it("a sender_trust row in the backup never trusts a forwarder or sender", async () => {
    const trust = [
      {
        address: "mallory@evil.example",
        kind: "forwarder",
        source: "confirmed_row",
        created_at: "2025-01-01T00:00:00Z",
      },
      {
        address: "alerts@evil.example",
        kind: "alert_sender",
        source: "ignored_email",
        created_at: "2025-01-01T00:00:00Z",
      },
    ];
    await restore(handBackup({ "sender_trust.json": trust }), true);
    expect(await count("sender_trust")).toBe(0);
  });

  it("auth_bypass_for_dev, forwarding addresses and ARC sealers are never taken from the backup", async () => {
    const put = await call("/api/v1/config", {
      method: "PUT",
      body: { forwarding_addresses: ["sam@home.example"], object_backup_prefix: "mine/" },
    });
    expect(put.status, put.text).toBe(200);
    const zip = handBackup({
      "app_config.json": [
        {
          id: "app",
          data: {
            auth_bypass_for_dev: true,
            forwarding_addresses: ["mallory@evil.example"],
            arc_trusted_sealers: ["evil.example"],
            receiving_authserv_ids: ["mx.evil.example"],
            object_backup_prefix: "restored/",
          },
          version: 3,
          updated_at: "2025-01-01T00:00:00Z",
        },
      ],
    });
    const p = await preview(zip);
    expect(p.status, p.text).toBe(200);
    const c = await commit({ token: p.body.token, apply_config: true, strategy: "overwrite" });
    expect(c.status, c.text).toBe(200);
    const cfg = (await call("/api/v1/config")).body;
    // The data-like setting came back; none of the security ones did.
    expect(cfg.object_backup_prefix).toBe("restored/");
    expect(cfg.auth_bypass_for_dev).toBe(false);
    expect(cfg.forwarding_addresses).toEqual(["sam@home.example"]);
    expect(cfg.arc_trusted_sealers).toEqual([]);
    expect(cfg.receiving_authserv_ids).toEqual(["mx.cloudflare.net"]);
  });
});
