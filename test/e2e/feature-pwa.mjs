// The journal as an installed app: the manifest (icons, standalone, a share target), the service
// worker that takes a share and hands it to the page, and the shell that opens offline with the
// last month this device loaded.
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import { join } from "node:path";
import { assert, cibcAlert, hasText, until } from "./helpers.mjs";

const PASSWORD = "correct horse battery";
const root = join(import.meta.dirname, "..", "..");

/** The shared-file form a page submits (the share sheet's POST navigation), as a script to run there. */
function submitShare({ action, files }) {
  const bytes = (b64) => Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
  const form = document.createElement("form");
  form.method = "POST";
  form.action = action;
  form.enctype = "multipart/form-data";
  const input = document.createElement("input");
  input.type = "file";
  input.name = "file";
  input.multiple = true;
  const dt = new DataTransfer();
  for (const f of files) dt.items.add(new File([bytes(f.b64)], f.name, { type: f.type }));
  input.files = dt.files;
  form.append(input);
  document.body.append(form);
  form.submit();
}

/** What the service worker keeps for the share page (read on a page of the journal's origin). */
const keptShares = (page) =>
  page.evaluate(async () => (await (await caches.open("fj-share")).keys()).map((r) => r.url));

/** Transactions of November 2026 whose text matches `q`. */
async function found(page, base, q) {
  const res = await page.request.get(
    `${base}/api/v1/transactions/search?from=2026-11&to=2026-11&q=${encodeURIComponent(q)}`,
  );
  return (await res.json()).transactions;
}

/** A page on another origin (`host`, its own port) that, once opened, submits a share to `target`. */
async function attackerSite(host, target, files) {
  const page = `<!doctype html><meta charset="utf-8"><title>Win a prize</title><body><script>
(${submitShare.toString()})(${JSON.stringify({ action: target, files })});
</script>`;
  const server = createServer((_req, res) => {
    res.writeHead(200, { "Content-Type": "text/html; charset=utf-8", "Referrer-Policy": "no-referrer" });
    res.end(page);
  });
  await new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, host, resolve);
  });
  return { url: `http://${host}:${server.address().port}/`, close: () => server.close() };
}

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
      // What the phone's share sheet does: a multipart POST navigation to the manifest's action
      // (here started by a page of the journal itself, the other door the worker accepts).
      await page.evaluate(submitShare, {
        action: "/share",
        files: [
          { b64: photo, name: "shared-receipt.png", type: "image/png" },
          { b64: eml, name: "cafe-alert.eml", type: "message/rfc822" },
        ],
      });
      await page.waitForURL(/\/share\?received=2$/);
      // Shown first, sent only on Keep: name, size and kind of each, and nothing in the journal yet.
      const waiting = page.getByTestId("share-waiting");
      await hasText(waiting, "shared-receipt.png");
      await hasText(waiting, "cafe-alert.eml");
      await hasText(waiting, "Receipt photo");
      await hasText(waiting, "Bank alert email");
      assert.match((await waiting.textContent()) ?? "", /\d+(\.\d)? (KB|bytes)/);
      await page.waitForTimeout(1500);
      assert.equal((await found(page, base, "shared from phone")).length, 0, "uploaded before Keep");
      assert.equal((await keptShares(page)).length, 2);
      await t.shot("share-confirm");
      await page.getByRole("button", { name: "Keep", exact: true }).click();
      const outcomes = page.getByTestId("share-outcomes");
      await hasText(outcomes, "Added to your receipts", 15_000);
      await hasText(outcomes, "Added to your journal", 15_000);
      await t.shot("share-outcomes");
      const unfiled = await (await page.request.get(`${base}/api/v1/attachments?unlinked=true`)).json();
      assert.ok(
        JSON.stringify(unfiled).includes("shared-receipt.png"),
        "the shared photo is not among the receipts",
      );
      const added = await found(page, base, "shared from phone");
      assert.equal(added.length, 1);
      assert.equal(added[0].amount, 23.45);
      // Handled files are gone from the worker's keeping: a second visit adds nothing again.
      await page.goto(`${base}/share`);
      await page.getByText("Nothing is waiting here").waitFor();
      // Leave the journal as the suites after this one expect it (their receipt tray, their totals).
      const shared = unfiled.attachments?.find((a) => a.original_filename === "shared-receipt.png");
      if (shared)
        assert.equal((await page.request.delete(`${base}/api/v1/attachments/${shared.id}`)).status(), 200);
      const txId = added[0].tx_id;
      const trash = await page.request.post(`${base}/api/v1/transactions/${txId}/delete`, {
        data: { deleted: true },
      });
      assert.equal(trash.status(), 200, await trash.text());
      const gone = await page.request.delete(`${base}/api/v1/transactions/${txId}`);
      assert.equal(gone.status(), 200, await gone.text());
    },
  },
  {
    name: "share: another site's page posting to /share stores nothing and sends nothing; a dropped share is gone",
    async run(t) {
      const { page, base } = t;
      const eml = Buffer.from(
        cibcAlert({ amount: "999.99", merchant: "FORGED SHARE STORE", id: "e2e-share-forged" }),
      ).toString("base64");
      const files = [{ b64: eml, name: "statement-copy.eml", type: "message/rfc822" }];
      // Another site (127.0.0.2: another host) and a sibling port of the journal's own host
      // (same site, another origin): both auto-submit a share form to the journal.
      for (const host of ["127.0.0.2", "127.0.0.1"]) {
        const evil = await attackerSite(host, `${base}/share`, files);
        try {
          await page.goto(evil.url);
          await page.waitForURL((u) => u.href.startsWith(`${base}/share`));
          assert.match(page.url(), /refused=1/, `a share from ${evil.url} was not refused`);
          await page.getByTestId("share-refused").waitFor();
          await page.getByText("Nothing is waiting here").waitFor();
          assert.deepEqual(await keptShares(page), [], `a share from ${evil.url} was kept`);
        } finally {
          evil.close();
        }
      }
      // A script's POST (not a navigation), even from the journal's own page, stores nothing.
      await page.evaluate(async (b64) => {
        const fd = new FormData();
        const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
        fd.append("file", new File([bytes], "scripted.eml", { type: "message/rfc822" }));
        await fetch("/share", { method: "POST", body: fd });
      }, eml);
      assert.deepEqual(await keptShares(page), [], "a fetch() POST to /share was kept");
      await page.waitForTimeout(1500);
      assert.equal(
        (await found(page, base, "forged share store")).length,
        0,
        "the forged alert was uploaded",
      );
      // The owner's own share, dropped on the page: gone, and nothing was sent.
      await page.goto(`${base}/`);
      await page.evaluate(submitShare, { action: "/share", files });
      await page.waitForURL(/\/share\?received=1$/);
      await hasText(page.getByTestId("share-waiting"), "statement-copy.eml");
      await page.getByRole("button", { name: "Drop all" }).click();
      await page.getByText("Nothing is waiting here").waitFor();
      assert.deepEqual(await keptShares(page), []);
      assert.equal((await found(page, base, "forged share store")).length, 0, "a dropped share was uploaded");
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
  {
    name: "offline after sign-out-all on another device: the kept month is gone, the journal asks to sign in",
    async run(t) {
      const { page, base, context } = t;
      await signedIn(page, base);
      await page.goto(`${base}/?month=2026-11`);
      await page.locator("[data-testid=tx-row]").first().waitFor();
      const kept = () =>
        page.evaluate(async () => (await (await caches.open("fj-data-v1")).keys()).map((r) => r.url));
      assert.ok((await kept()).length > 0, "nothing was kept for offline");
      // Sign-out-all needs a password (the walk sets it; this suite alone sets the same one).
      const probe = await page.request.post(`${base}/api/v1/auth/set-password`, {
        data: { password: PASSWORD },
        headers: { origin: base },
      });
      assert.ok(probe.status() < 500, await probe.text());
      // Another device: its own session, then "sign out everywhere".
      const other = await context.browser().newContext();
      try {
        const login = await other.request.post(`${base}/api/v1/auth/login`, {
          data: { password: PASSWORD },
          headers: { origin: base },
        });
        assert.equal(login.status(), 200, await login.text());
        const all = await other.request.post(`${base}/api/v1/auth/sign-out-all`, {
          headers: { origin: base },
        });
        assert.equal(all.status(), 200, await all.text());
      } finally {
        await other.close();
      }
      // The next open (online) finds the session gone: sign-in, and nothing kept.
      await page.goto(`${base}/`);
      await page.getByRole("heading", { name: "Sign in" }).waitFor();
      await until(async () => (await kept()).length === 0, "the kept reads dropped");
      await context.setOffline(true);
      try {
        await page.goto(`${base}/?month=2026-11`);
        await page.waitForTimeout(2000);
        assert.equal(
          await page.locator("[data-testid=tx-row]").count(),
          0,
          "the month shows after sign-out-all",
        );
        await t.shot("offline-after-sign-out-all");
      } finally {
        await context.setOffline(false);
      }
      await signedIn(page, base);
    },
  },
];
