// Backup and restore in the browser (issue 23 point 2, issue 26 finding 1): a backup holds the
// receipt files, so a restore through the Backup page brings back a receipt the journal had lost
// and the image shows again; and a crafted backup's attachment, opened at its file URL, runs no
// script. Runs on the seeded demo server; screenshots at desktop width and 390 px.
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { strToU8, zipSync } from "fflate";
import { freePort } from "../../scripts/lib/net.mjs";
import { assert, hasText, until, signedIn } from "./helpers.mjs";

const fixtures = join(import.meta.dirname, "..", "fixtures", "receipts");
const XSS = "<img src=x onerror=alert('xss-name')>";

const write = (t) => ({ origin: t.base });

async function restoreViaApi(t, zip) {
  const p = await t.page.request.post(`${t.base}/api/v1/data/import/preview`, {
    multipart: { file: { name: "crafted.zip", mimeType: "application/zip", buffer: Buffer.from(zip) } },
    headers: write(t),
  });
  assert.equal(p.status(), 200, `preview: ${await p.text()}`);
  const { token } = await p.json();
  const c = await t.page.request.post(`${t.base}/api/v1/data/import/commit`, {
    data: { token },
    headers: write(t),
  });
  assert.equal(c.status(), 200, `commit: ${await c.text()}`);
  return c.json();
}

/**
 * The backup zip through the API: streamed at once for a small journal; past 200 stored files (the
 * seeded demo's raw emails) GET answers 202 and the zip is built in steps (issue 36): its status
 * is polled until done, then it downloads.
 */
async function exportZip(t) {
  const first = await t.page.request.get(`${t.base}/api/v1/data/export`);
  if (first.status() === 200) return first.body();
  assert.equal(first.status(), 202, await first.text());
  let build = await first.json();
  for (let i = 0; i < 240 && build.status === "running"; i++) {
    await new Promise((r) => setTimeout(r, 500));
    build = await (await t.page.request.get(`${t.base}/api/v1/data/export/jobs/current`)).json();
  }
  assert.equal(build.status, "done", JSON.stringify(build));
  const file = await t.page.request.get(`${t.base}${build.download_url}`);
  assert.equal(file.status(), 200);
  return file.body();
}

const root = join(import.meta.dirname, "..", "..");

/** A fresh install: its own empty state folder, its own port (stopped by its process group). */
async function startFresh() {
  const state = mkdtempSync(join(tmpdir(), "fj-e2e-fresh-"));
  const port = await freePort();
  const child = spawn(
    process.execPath,
    [
      join(root, "scripts", "start.mjs"),
      "--port",
      String(port),
      "--ip",
      "127.0.0.1",
      "--persist-to",
      state,
      "--inspector-port",
      String(await freePort()),
    ],
    { cwd: root, detached: true, stdio: "ignore", env: { ...process.env, WRANGLER_SEND_METRICS: "false" } },
  );
  const base = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode === null) {
      const gone = new Promise((r) => child.once("exit", r));
      try {
        process.kill(-child.pid, "SIGTERM");
      } catch {
        // already gone
      }
      await Promise.race([gone, new Promise((r) => setTimeout(r, 5000))]);
    }
    rmSync(state, { recursive: true, force: true });
  };
  await until(
    async () => (await fetch(`${base}/api/v1/health`).catch(() => null))?.ok,
    "the fresh install answers",
    180_000,
  ).catch(async (err) => {
    await stop();
    throw err;
  });
  return { base, stop };
}

/** scripts/e2e.mjs boots the fresh install early, while other suites run; the step awaits it. */
export const prepare = startFresh;

export const steps = [
  {
    name: "a receipt lost after a backup comes back through the Backup page, and its image shows",
    async run(t) {
      const { page } = t;
      page.setDefaultTimeout(30_000);
      await signedIn(t);
      await page.goto(`${t.base}/?month=2026-10`);
      const row = page.locator("[data-testid=tx-row]").first();
      await row.waitFor();
      const txId = await row.getAttribute("data-tx-id");
      const up = await page.request.post(`${t.base}/api/v1/attachments`, {
        multipart: {
          file: {
            name: "lost-receipt.png",
            mimeType: "image/png",
            buffer: readFileSync(join(fixtures, "receipt.png")),
          },
          tx_id: txId,
        },
        headers: write(t),
      });
      assert.equal(up.status(), 200, await up.text());
      const { id } = await up.json();
      const zip = await exportZip(t);
      t.state.backupZip = zip;
      t.state.backupTx = txId;
      // The receipt is lost: row and file.
      const del = await page.request.delete(`${t.base}/api/v1/attachments/${id}`, { headers: write(t) });
      assert.equal(del.status(), 200);
      assert.equal((await page.request.get(`${t.base}/api/v1/attachments/${id}/file`)).status(), 404);

      await page.goto(`${t.base}/backup`);
      await hasText(page.locator("#backup-h").locator("xpath=.."), "your receipts and documents");
      await page
        .getByTestId("backup-file")
        .setInputFiles({ name: "backup.zip", mimeType: "application/zip", buffer: zip });
      await page.getByRole("button", { name: "Check this backup" }).click();
      await page.getByTestId("restore-preview").waitFor();
      assert.equal(
        await page.getByTestId("apply-config").isChecked(),
        false,
        "settings restore is not pre-ticked",
      );
      await hasText(page.getByTestId("restore-files"), "receipts and documents");
      await t.shot("backup-preview");
      await page.getByTestId("apply-restore").click();
      await hasText(page.getByTestId("restore-result"), "Your settings were kept");

      await page.goto(`${t.base}/?month=2026-10`);
      await page.locator(`[data-testid=tx-row][data-tx-id="${txId}"]`).click();
      const thumb = page.getByTestId("drawer").locator("[data-testid=tx-receipt] img").first();
      await thumb.waitFor();
      await until(
        () => thumb.evaluate((img) => img.complete && img.naturalWidth > 0),
        "the restored receipt image loads",
        30_000,
      );
      await t.shot("backup-restored-receipt");
    },
  },
  {
    name: "the backup restored into a fresh install: the receipt opens and its image shows",
    async run(t) {
      // Started by scripts/e2e.mjs before the suites ahead of this one (`prepare` below).
      const fresh = await (t.state.prepared ?? startFresh());
      if (!t.state.backupZip) {
        await fresh.stop();
        assert.fail("the previous step made a backup");
      }
      const context = await t.page
        .context()
        .browser()
        .newContext({ viewport: { width: 1280, height: 900 } });
      try {
        const page = await context.newPage();
        page.setDefaultTimeout(60_000);
        await page.goto(`${fresh.base}/backup`);
        await page
          .getByTestId("backup-file")
          .setInputFiles({ name: "backup.zip", mimeType: "application/zip", buffer: t.state.backupZip });
        await page.getByRole("button", { name: "Check this backup" }).click();
        await page.getByTestId("restore-preview").waitFor();
        assert.equal(await page.getByTestId("apply-config").isChecked(), false);
        await page.getByTestId("apply-restore").click();
        await hasText(page.getByTestId("restore-result"), "receipts and documents", 60_000);
        await page.goto(`${fresh.base}/?month=2026-10`);
        await page.locator(`[data-testid=tx-row][data-tx-id="${t.state.backupTx}"]`).click();
        const thumb = page.getByTestId("drawer").locator("[data-testid=tx-receipt] img").first();
        await thumb.waitFor();
        await until(
          () => thumb.evaluate((img) => img.complete && img.naturalWidth > 0),
          "the receipt image loads in the fresh install",
          30_000,
        );
        await page.screenshot({
          path: join(
            process.env.E2E_RESULTS ?? join(root, "test-results"),
            "screenshots",
            "backup-fresh-install-receipt.png",
          ),
        });
      } finally {
        await context.close();
        await fresh.stop();
      }
    },
  },
  {
    name: "a crafted backup's attachment file URL runs no script",
    async run(t) {
      const { page } = t;
      await signedIn(t);
      const dialogs = [];
      page.on("dialog", (d) => {
        dialogs.push(d.message());
        d.dismiss().catch(() => {});
      });
      // A PNG header followed by a page: the bytes sniff as PNG, the rest is script bait.
      const png = Buffer.from("89504e470d0a1a0a0000000d4948445200000001000000010806000000", "hex");
      const bait = Buffer.from(
        "<html><script>alert('xss-file')</script><img src=x onerror=alert('xss-img')></html>",
      );
      const poly = Buffer.concat([png, Buffer.alloc(8), bait]);
      const sha = createHash("sha256").update(poly).digest("hex");
      const row = (id, type, bytesSha) => ({
        id,
        original_filename: `${XSS}.png`,
        content_type: type,
        size_bytes: poly.length,
        sha256: bytesSha,
        kind: "receipt",
        r2_key: "backups/config/categories.json",
        parse_status: "unparsed",
        created_at: "2026-10-02T00:00:00Z",
        updated_at: "2026-10-02T00:00:00Z",
      });
      const html = "att_e2e0000000000001";
      const polyId = "att_e2e0000000000002";
      const zip = zipSync({
        "manifest.json": strToU8(JSON.stringify({ format: "finance-journal-backup", format_version: 2 })),
        "attachments.json": strToU8(
          JSON.stringify([row(html, "text/html", "e".repeat(64)), row(polyId, "text/html", sha)]),
        ),
        [`files/attachments/${polyId}`]: new Uint8Array(poly),
      });
      const result = await restoreViaApi(t, zip);
      assert.equal(result.files.attachments, 1, JSON.stringify(result));

      const served = await page.goto(`${t.base}/api/v1/attachments/${polyId}/file`);
      assert.equal(served.status(), 200);
      const headers = served.headers();
      assert.equal(headers["content-type"], "image/png");
      assert.equal(headers["content-security-policy"], "sandbox; default-src 'none'; frame-ancestors 'none'");
      assert.equal(headers["x-content-type-options"], "nosniff");
      await page.waitForTimeout(1000);
      assert.equal((await page.request.get(`${t.base}/api/v1/attachments/${html}/file`)).status(), 404);
      // The crafted name shows as text in the receipts tray.
      await page.goto(`${t.base}/receipts`);
      await page.waitForTimeout(1500);
      assert.deepEqual(dialogs, [], "no script ran");
      await page.request.delete(`${t.base}/api/v1/attachments/${polyId}`, { headers: write(t) });
    },
  },
];
