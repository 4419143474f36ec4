// The journal as an installed app: the manifest (icons, standalone, a share target), the service
// worker that takes a share and hands it to the page, and the shell that opens offline with the
// last month this device loaded.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { assert, cibcAlert, hasText, until } from "./helpers.mjs";

const PASSWORD = "correct horse battery";
const root = join(import.meta.dirname, "..", "..");

async function signedIn(page, base) {
  await page.goto(`${base}/`);
  const signIn = page.getByRole("heading", { name: "Sign in" });
  const journal = page.getByRole("heading", { name: "Journal", level: 1 });
  await until(async () => (await signIn.count()) > 0 || (await journal.count()) > 0, "a page");
  if (await signIn.count()) {
    await page.getByLabel("Password").fill(PASSWORD);
    await page.getByRole("button", { name: "Sign in" }).click();
    await journal.waitFor();
  }
}

export const steps = [
  {
    name: "installable: a manifest with icons, standalone display and a share target; a service worker in control",
    async run(t) {
      const { page, base } = t;
      await signedIn(page, base);
      const href = await page.locator("link[rel=manifest]").getAttribute("href");
      const manifest = await (await page.request.get(new URL(href, base).href)).json();
      assert.equal(manifest.display, "standalone");
      assert.equal(manifest.start_url, "/");
      for (const size of ["192x192", "512x512"]) {
        const icon = manifest.icons.find((i) => i.sizes === size && i.type === "image/png");
        assert.ok(icon, `no ${size} PNG icon`);
        const res = await page.request.get(`${base}${icon.src}`);
        assert.equal(res.status(), 200);
        assert.equal(res.headers()["content-type"], "image/png");
      }
      const share = manifest.share_target;
      assert.deepEqual(
        [share.action, share.method, share.enctype],
        ["/share", "POST", "multipart/form-data"],
      );
      const accepts = share.params.files[0].accept;
      for (const a of ["image/*", "application/pdf", "message/rfc822", ".eml", "text/csv"])
        assert.ok(accepts.includes(a), `the share target does not accept ${a}`);
      await page.evaluate(() => navigator.serviceWorker.ready);
      await page.reload();
      await until(
        () => page.evaluate(() => navigator.serviceWorker.controller !== null),
        "a controlling worker",
      );
    },
  },
  {
    name: "share: a receipt photo and a bank alert shared to the app land in Receipts and the journal",
    async run(t) {
      const { page, base } = t;
      const photo = readFileSync(join(root, "dashboard", "public", "icons", "icon-192.png")).toString(
        "base64",
      );
      const eml = Buffer.from(
        cibcAlert({ amount: "23.45", merchant: "SHARED FROM PHONE CAFE", id: "e2e-share-1" }),
      ).toString("base64");
      // What the phone's share sheet does: a multipart POST navigation to the manifest's action.
      await page.evaluate(
        ({ photo, eml }) => {
          const bytes = (b64) => Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
          const form = document.createElement("form");
          form.method = "POST";
          form.action = "/share";
          form.enctype = "multipart/form-data";
          const input = document.createElement("input");
          input.type = "file";
          input.name = "file";
          input.multiple = true;
          const dt = new DataTransfer();
          dt.items.add(new File([bytes(photo)], "shared-receipt.png", { type: "image/png" }));
          dt.items.add(new File([bytes(eml)], "cafe-alert.eml", { type: "message/rfc822" }));
          input.files = dt.files;
          form.append(input);
          document.body.append(form);
          form.submit();
        },
        { photo, eml },
      );
      await page.waitForURL(/\/share\?received=2$/);
      const outcomes = page.getByTestId("share-outcomes");
      await hasText(outcomes, "Added to your receipts", 15_000);
      await hasText(outcomes, "Added to your journal", 15_000);
      await t.shot("share-outcomes");
      const unfiled = await (await page.request.get(`${base}/api/v1/attachments?unlinked=true`)).json();
      assert.ok(
        JSON.stringify(unfiled).includes("shared-receipt.png"),
        "the shared photo is not among the receipts",
      );
      const found = await (
        await page.request.get(
          `${base}/api/v1/transactions/search?from=2026-11&to=2026-11&q=shared%20from%20phone`,
        )
      ).json();
      assert.equal(found.transactions.length, 1);
      assert.equal(found.transactions[0].amount, 23.45);
      // Handled files are gone from the worker's keeping: a second visit adds nothing again.
      await page.goto(`${base}/share`);
      await page.getByText("Nothing is waiting here").waitFor();
      // Leave the journal as the suites after this one expect it (their receipt tray, their totals).
      const shared = unfiled.attachments?.find((a) => a.original_filename === "shared-receipt.png");
      if (shared)
        assert.equal((await page.request.delete(`${base}/api/v1/attachments/${shared.id}`)).status(), 200);
      const txId = found.transactions[0].tx_id;
      const trash = await page.request.post(`${base}/api/v1/transactions/${txId}/delete`, {
        data: { deleted: true },
      });
      assert.equal(trash.status(), 200, await trash.text());
      const gone = await page.request.delete(`${base}/api/v1/transactions/${txId}`);
      assert.equal(gone.status(), 200, await gone.text());
    },
  },
  {
    name: "offline: the shell opens and shows the last month this device loaded, marked offline",
    async run(t) {
      const { page, base, context } = t;
      await page.goto(`${base}/?month=2026-10`);
      await page.locator("[data-testid=tx-row]").first().waitFor();
      await page.goto(`${base}/`);
      await page.locator("[data-testid=tx-row]").first().waitFor();
      const online = await page.locator("[data-testid=tx-row]").count();
      await context.setOffline(true);
      try {
        await page.goto(`${base}/`);
        await page.getByTestId("offline-banner").waitFor();
        await page.locator("[data-testid=tx-row]").first().waitFor();
        assert.equal(await page.locator("[data-testid=tx-row]").count(), online, "not the month loaded last");
        await t.shot("offline");
      } finally {
        await context.setOffline(false);
      }
    },
  },
];
