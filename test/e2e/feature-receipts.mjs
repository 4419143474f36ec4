// Receipts in the browser: attach a photo from the transaction drawer, then file an unattached
// receipt from the "Receipts to file" tray through its candidates with one click. Runs on the seeded
// demo server (today 2026-11-21); screenshots at desktop width and 390 px.
import { join } from "node:path";
import { assert, hasText, until, signedIn } from "./helpers.mjs";

const fixtures = join(import.meta.dirname, "..", "fixtures", "receipts");

/** The walk may have set a password before this suite: sign this browser context in if needed. */

async function json(t, path) {
  const res = await t.page.request.get(`${t.base}${path}`);
  assert.equal(res.status(), 200, `${path}: ${res.status()}`);
  return res.json();
}

export const steps = [
  {
    name: "attach a receipt photo from the transaction drawer (camera input offered)",
    async run(t) {
      const { page } = t;
      // The machine is shared and often loaded: every wait of this suite gets 30 s, not 10.
      page.setDefaultTimeout(30_000);
      await signedIn(t);
      await page.goto(`${t.base}/?month=2026-11`);
      const row = page.locator("[data-testid=tx-row]").first();
      await row.waitFor();
      const txId = await row.getAttribute("data-tx-id");
      await row.click();
      const drawer = page.getByTestId("drawer");
      const section = drawer.getByTestId("tx-receipts");
      await section.waitFor();
      await hasText(section, "No receipt attached");
      const camera = section.getByTestId("receipt-camera");
      assert.equal(await camera.getAttribute("accept"), "image/*");
      assert.equal(await camera.getAttribute("capture"), "environment");
      await section.getByTestId("receipt-file").setInputFiles(join(fixtures, "receipt.jpg"));
      await page.getByText("Receipt attached").first().waitFor();
      const thumb = section.locator("[data-testid=tx-receipt] img");
      await thumb.waitFor();
      await until(
        () => thumb.evaluate((img) => img.complete && img.naturalWidth > 0),
        "the receipt image loads",
        30_000,
      );
      const listed = await json(t, `/api/v1/transactions/${txId}/attachments`);
      assert.equal(listed.count, 1);
      assert.equal(listed.attachments[0].content_type, "image/jpeg");
      t.state.drawerTx = txId;
      await section.scrollIntoViewIfNeeded();
      await t.shot("drawer-receipt");
    },
  },
  {
    name: "the tray: drop a receipt, type its total and date, pick the candidate, it is filed",
    async run(t) {
      const { page } = t;
      const month = await json(t, "/api/v1/transactions?month=2026-11");
      const target = month.transactions.find(
        (x) =>
          x.transaction_type === "purchase" && !x.ignored && x.tx_id !== t.state.drawerTx && x.amount > 1,
      );
      assert.ok(target, "a purchase to match");
      const day = target.date_file_name.slice(0, 10).replaceAll(".", "-");
      await page.goto(`${t.base}/receipts`);
      await page.getByRole("heading", { name: "Receipts to file" }).waitFor();
      await page
        .getByTestId("receipt-dropzone")
        .getByTestId("receipt-file")
        .setInputFiles(join(fixtures, "receipt.png"));
      const card = page.getByTestId("receipt-card").filter({ hasText: "receipt.png" });
      await card.waitFor();
      await card.getByLabel("Total").fill(target.amount.toFixed(2));
      await card.getByLabel("Date").fill(day);
      await card.getByRole("button", { name: "Find matches" }).click();
      const candidates = card.getByTestId("candidate");
      await candidates.first().waitFor();
      const texts = await candidates.allTextContents();
      const index = texts.findIndex((s) => s.includes(target.company));
      assert.ok(index >= 0, `the target ${target.company} is among ${texts.join(" | ")}`);
      await t.shot("tray-candidates");
      await candidates.nth(index).getByRole("button", { name: "Link" }).click();
      await page.getByText("Receipt linked").first().waitFor();
      await until(async () => (await card.count()) === 0, "the filed receipt leaves the tray", 30_000);
      const linked = await json(t, `/api/v1/transactions/${target.tx_id}/attachments`);
      assert.ok(linked.attachments.some((a) => a.original_filename === "receipt.png"));
      await t.shot("tray-filed");
    },
  },
  {
    name: "the tray: a 12-megapixel HEIC dropped in Chromium is converted in the browser, stored as JPEG",
    async run(t) {
      const { page } = t;
      await page.goto(`${t.base}/receipts`);
      await page.getByRole("heading", { name: "Receipts to file" }).waitFor();
      // Chromium cannot decode HEIC itself: the dashboard loads libheif's WebAssembly on demand and
      // uploads a .jpg (the server, converting, would keep the .HEIC name), which proves the browser did it.
      const wasm = page.waitForResponse((r) => /libheif-[\w-]+\.wasm$/.test(r.url()));
      const started = Date.now();
      await page
        .getByTestId("receipt-dropzone")
        .getByTestId("receipt-file")
        .setInputFiles(join(fixtures, "receipt-12mp.heic"));
      assert.equal((await wasm).status(), 200, "the libheif chunk's .wasm is served");
      const card = page.getByTestId("receipt-card").filter({ hasText: "receipt-12mp.jpg" });
      await card.waitFor();
      const elapsed = Date.now() - started;
      const unfiled = await json(t, "/api/v1/attachments?unlinked=true");
      const stored = unfiled.attachments.find((a) => a.original_filename === "receipt-12mp.jpg");
      assert.ok(stored, "the converted receipt is listed as receipt-12mp.jpg");
      assert.equal(stored.content_type, "image/jpeg");
      const file = await t.page.request.get(`${t.base}/api/v1/attachments/${stored.id}/file`);
      assert.equal(file.headers()["content-type"], "image/jpeg");
      const bytes = await file.body();
      assert.deepEqual([...bytes.subarray(0, 3)], [0xff, 0xd8, 0xff], "a JPEG (SOI marker)");
      const size = await page.evaluate(async (url) => {
        const bitmap = await createImageBitmap(await (await fetch(url)).blob());
        return [bitmap.width, bitmap.height];
      }, `${t.base}/api/v1/attachments/${stored.id}/file`);
      assert.deepEqual(size, [2048, 1536], "4032×3024 scaled to a 2048 px long edge");
      console.log(
        `    12 MP HEIC → JPEG upload in Chromium: ${elapsed} ms (libheif fetched, decode, encode, upload)`,
      );
      await t.shot("tray-heic");
    },
  },
];
