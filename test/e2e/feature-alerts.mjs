// Issue 27 in the browser: a real bank notice (Japan Net Bank's "a transfer came in", from another
// project's test fixtures, see test/fixtures/alerts/peers) is ignored by the relevance check; the
// Needs review page links to the ignored list, which shows it with its reason; "This was a bank
// alert" sends it into Needs review. At desktop width, then the same walk at 390 px.
// Runs on the seeded demo server (today 2026-11-21).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { assert, hasText, signedIn } from "./helpers.mjs";

const PEERS = join(import.meta.dirname, "..", "fixtures", "alerts", "peers");
const real = (path, id) =>
  readFileSync(join(PEERS, path), "utf8").replace(/^Message-ID: .*$/m, `Message-ID: <${id}@e2e.example>`);

/** Uploads on the Upload page and waits for the outcome line. */
async function upload(t, raw, name, expect) {
  const { page } = t;
  await page.goto(`${t.base}/upload`);
  await page
    .getByTestId("eml-input")
    .setInputFiles({ name, mimeType: "message/rfc822", buffer: Buffer.from(raw) });
  await hasText(page.getByTestId("upload-outcome"), expect);
}

/** From Needs review to the ignored list, then one click: the email lands in the quarantine. */
async function walk(t, subject, shot) {
  const { page } = t;
  await page.goto(`${t.base}/review?month=2026-11`);
  await page.getByTestId("ignored-link").click();
  await page.waitForURL(/\/review\/ignored$/);
  const item = page.getByTestId("ignored-item").filter({ hasText: subject }).first();
  await item.waitFor();
  await hasText(item, "No amount of money found in it.");
  await t.shot(`${shot}-ignored`);
  await item.getByRole("button", { name: "This was a bank alert" }).click();
  await hasText(item, "Sent to Needs review");
  await hasText(item, "sent to review");
  await item.getByRole("link", { name: "Open Needs review" }).click();
  await page.waitForURL(/\/review$/);
  const failure = page.getByTestId("parse-failures").locator("li.failure", { hasText: subject });
  await failure.first().waitFor();
  await t.shot(`${shot}-in-review`);
}

const overflow = (page) => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

export const steps = [
  {
    name: "desktop: a real ignored bank notice is walked from the ignored list into Needs review",
    async run(t) {
      t.page.setDefaultTimeout(30_000);
      await signedIn(t);
      const raw = real("jp-japannetbank/transferDeposited-1.eml", "jnb-desktop");
      await upload(t, raw, "jnb.eml", "Ignored");
      // Its subject, 振込入金のご連絡: "a transfer was deposited".
      await walk(t, "振込入金のご連絡", "alerts-desktop");
    },
  },
  {
    name: "390 px: the same walk fits the phone screen",
    async run(t) {
      const { page } = t;
      await page.setViewportSize({ width: 390, height: 844 });
      try {
        const raw = real("mx-banorte/debit-card-blocked-email.eml", "banorte-phone");
        await upload(t, raw, "banorte.eml", "Ignored");
        await page.goto(`${t.base}/review/ignored`);
        await page.getByTestId("ignored-item").first().waitFor();
        assert.ok((await overflow(page)) <= 0, "the ignored list scrolls sideways at 390 px");
        await walk(t, "Banorte", "alerts-phone");
        assert.ok((await overflow(page)) <= 0, "Needs review scrolls sideways at 390 px");
      } finally {
        await page.setViewportSize({ width: 1280, height: 900 });
      }
    },
  },
  {
    name: "settings: own forwarding addresses, the journal currency and card holders are saved",
    async run(t) {
      const { page } = t;
      await page.goto(`${t.base}/settings#alerts`);
      // The stored values arrive after the form draws: type only once they are in.
      await page.waitForLoadState("networkidle");
      await page.getByTestId("forwarding-addresses").fill("sam@home.example");
      await page.getByTestId("card-names").fill("MBNA 1234 Sam");
      await page.getByRole("button", { name: "Save alert settings" }).click();
      await page.getByText("Alert settings saved").waitFor();
      await t.shot("alerts-settings");
      const config = await (await page.request.get(`${t.base}/api/v1/config`)).json();
      assert.deepEqual(config.forwarding_addresses, ["sam@home.example"]);
      assert.equal(config.journal_currency, "CAD");
      const cards = await (await page.request.get(`${t.base}/api/v1/card-names`)).json();
      assert.deepEqual(cards.mappings, { MBNA: { 1234: "Sam" } });
    },
  },
];
