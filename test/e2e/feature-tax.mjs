// The Tax page in the browser: a year with lines, exclude a row and see the total drop, move one
// into Other claimable, attach the missing receipt in place, download the zip and read it back.
// Runs on the seeded demo server (today 2026-11-21; "health care" rows fill the medical line);
// screenshots at desktop width and 390 px.
import { readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { unzipSync } from "fflate";
import { assert, hasText, until } from "./helpers.mjs";

const fixtures = join(import.meta.dirname, "..", "fixtures", "receipts");
const PASSWORD = "correct horse battery";
const YEAR = 2026;

async function signedIn(t) {
  const probe = await t.page.request.get(`${t.base}/api/v1/config`);
  if (probe.status() !== 401) return;
  const res = await t.page.request.post(`${t.base}/api/v1/auth/login`, {
    data: { password: PASSWORD },
    headers: { origin: t.base },
  });
  assert.equal(res.status(), 200, "sign in for the tax suite");
}

async function pack(t) {
  const res = await t.page.request.get(`${t.base}/api/v1/tax-pack?year=${YEAR}`);
  assert.equal(res.status(), 200);
  return res.json();
}

const money = (text) => Number((text ?? "").replace(/[^0-9.-]/g, ""));
const lineCard = (page, key) => page.locator(`[data-testid=tax-line][data-line=${key}]`);

export const steps = [
  {
    name: "a year with its seven lines; the medical line expands to its rows",
    async run(t) {
      const { page } = t;
      page.setDefaultTimeout(30_000);
      await signedIn(t);
      await page.goto(`${t.base}/tax?year=${YEAR}`);
      await page.getByRole("heading", { name: "Tax pack" }).waitFor();
      await until(async () => (await page.getByTestId("tax-line").count()) >= 7, "seven lines", 30_000);
      const p = await pack(t);
      const medical = p.lines.find((l) => l.key === "medical");
      assert.ok(medical.transaction_count >= 3, `medical rows in the demo: ${medical.transaction_count}`);
      const card = lineCard(page, "medical");
      await hasText(card, "Medical expenses");
      assert.equal(money(await card.getByTestId("tax-line-total").textContent()), medical.total);
      assert.ok(
        !(await page.locator("body").textContent()).includes("Line 33099"),
        "the country reference stays hidden",
      );
      await card.locator(".tax-line-head").click();
      await until(
        async () => (await card.getByTestId("tax-row").count()) === medical.transaction_count,
        "rows shown",
      );
      await t.shot("tax-lines");
      t.state.medical = medical;
    },
  },
  {
    name: "exclude a row: the total drops and the row is listed as excluded",
    async run(t) {
      const { page } = t;
      const card = lineCard(page, "medical");
      const row = card.getByTestId("tax-row").first();
      const txId = await row.getAttribute("data-tx-id");
      const amount = t.state.medical.transactions.find((r) => r.tx_id === txId).amount;
      await row.getByRole("button", { name: "Exclude" }).click();
      const expected = Math.round((t.state.medical.total - amount) * 100) / 100;
      await until(
        async () => money(await card.getByTestId("tax-line-total").textContent()) === expected,
        `medical total drops to ${expected}`,
        30_000,
      );
      await card.getByTestId("tax-excluded").locator(`[data-tx-id="${txId}"]`).waitFor();
      await t.shot("tax-excluded");
    },
  },
  {
    name: "move a row into Other claimable: the line appears with it",
    async run(t) {
      const { page } = t;
      assert.equal(await lineCard(page, "other").count(), 0, "no Other claimable before");
      const row = lineCard(page, "medical").locator("ul.tax-rows").first().getByTestId("tax-row").first();
      const txId = await row.getAttribute("data-tx-id");
      await row.locator("select").selectOption("other");
      const other = lineCard(page, "other");
      await other.waitFor();
      await hasText(other, "Other claimable");
      const p = await pack(t);
      const line = p.lines.find((l) => l.key === "other");
      assert.deepEqual(
        line.transactions.map((r) => r.tx_id),
        [txId],
      );
      await other.locator(".tax-line-head").click();
      await other.locator(`[data-tx-id="${txId}"]`).waitFor();
      t.state.otherTx = txId;
      await other.scrollIntoViewIfNeeded();
      await t.shot("tax-other");
    },
  },
  {
    name: "attach the missing receipt from the Tax page",
    async run(t) {
      const { page } = t;
      const row = lineCard(page, "other").locator(`[data-tx-id="${t.state.otherTx}"]`);
      await row.getByTestId("tax-attach-file").setInputFiles(join(fixtures, "receipt.jpg"));
      await page.getByText("Receipt attached").first().waitFor();
      await hasText(
        lineCard(page, "other").locator(`[data-tx-id="${t.state.otherTx}"]`).getByTestId("tax-evidence"),
        "Receipt",
        30_000,
      );
      await lineCard(page, "other").scrollIntoViewIfNeeded();
      await t.shot("tax-receipt");
    },
  },
  {
    name: "download tax-pack-2026.zip and read it back",
    async run(t) {
      const { page } = t;
      const [download] = await Promise.all([
        page.waitForEvent("download"),
        page.getByTestId("tax-download").click(),
      ]);
      assert.equal(download.suggestedFilename(), `tax-pack-${YEAR}.zip`);
      const file = join(tmpdir(), `fj-e2e-tax-${Date.now()}.zip`);
      await download.saveAs(file);
      const files = unzipSync(new Uint8Array(readFileSync(file)));
      const names = Object.keys(files);
      for (const n of ["summary.csv", "lines/medical.csv", "lines/other.csv"])
        assert.ok(names.includes(n), `${n} in ${names.join(", ")}`);
      assert.ok(
        names.some((n) => /^evidence\/other\/.*\.jpg$/.test(n)),
        "the attached receipt is in evidence/other/",
      );
      const summary = new TextDecoder().decode(files["summary.csv"]);
      assert.match(summary, /^other,Other claimable,/m);
      assert.ok(!summary.includes("Line 33099"), "no country reference in the CSV");
    },
  },
  {
    name: "with tax tracking off the page and its menu entry are hidden",
    async run(t) {
      const { page } = t;
      const put = (on) =>
        page.request.put(`${t.base}/api/v1/config`, {
          data: { tax_tracking_enabled: on },
          headers: { origin: t.base },
        });
      assert.equal((await put(false)).status(), 200);
      try {
        await page.goto(`${t.base}/tax?year=${YEAR}`);
        await page.getByText("Tax tracking is off").waitFor();
        assert.equal(await page.locator("#main-nav a[href='/tax']").count(), 0, "no Tax entry in the menu");
        await t.shot("tax-off");
      } finally {
        assert.equal((await put(true)).status(), 200);
      }
      await page.goto(`${t.base}/tax?year=${YEAR}`);
      await page.locator("#main-nav a[href='/tax']").waitFor({ state: "attached" });
    },
  },
];
