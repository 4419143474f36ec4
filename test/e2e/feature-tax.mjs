// The Tax page in the browser: a year with lines, exclude a row and see the total drop, move one
// into Other claimable, attach the missing receipt in place, download the zip and read it back.
// Runs on the seeded demo server (today 2026-11-21; "health care" rows fill the medical line);
// screenshots at desktop width and 390 px.
import { readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { unzipSync } from "fflate";
import { assert, hasText, until, signedIn } from "./helpers.mjs";

const fixtures = join(import.meta.dirname, "..", "fixtures", "receipts");
const YEAR = 2026;

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
    name: "from a transaction's drawer: claim it on a line, then hand it back to automatic",
    async run(t) {
      const { page } = t;
      const before = await pack(t);
      const inPack = new Set(
        before.lines.flatMap((l) =>
          [...l.transactions, ...(l.excluded_transactions ?? [])].map((r) => r.tx_id),
        ),
      );
      const month = await (await page.request.get(`${t.base}/api/v1/transactions?month=${YEAR}-11`)).json();
      const tx = month.transactions.find(
        (x) => x.transaction_type === "purchase" && !x.ignored && !inPack.has(x.tx_id),
      );
      assert.ok(tx, "a November purchase outside the tax pack");
      const medical = before.lines.find((l) => l.key === "medical");
      assert.ok(medical, "the medical line");
      await page.goto(`${t.base}/?month=${YEAR}-11`);
      await page.locator(`[data-testid=tx-row][data-tx-id="${tx.tx_id}"]`).click();
      const section = page.getByTestId("drawer").getByTestId("tx-tax");
      await section.locator("summary").click();
      const standing = section.getByTestId("tx-tax-standing");
      await hasText(standing, `Not in the ${YEAR} tax pack`);
      // Its category (groceries) maps to no line: SPEC files such a claim under Other claimable.
      await section.getByRole("button", { name: "Claim as Other claimable" }).click();
      await hasText(standing, "Claimed on Other claimable");
      await hasText(standing, "added by you");
      const other = (await pack(t)).lines.find((l) => l.key === "other");
      const row = other?.transactions.find((r) => r.tx_id === tx.tx_id);
      assert.ok(row?.manual, "the pack lists it under Other claimable, added by hand");
      await section.scrollIntoViewIfNeeded();
      await t.shot("drawer-tax");
      await section.getByRole("button", { name: "Back to automatic" }).click();
      await hasText(standing, `Not in the ${YEAR} tax pack`);
      const after = await pack(t);
      assert.ok(
        !after.lines.some((l) => l.transactions.some((r) => r.tx_id === tx.tx_id)),
        "back out of the pack",
      );
      // A row its category files on a line can be moved to another line from the drawer.
      const derived = after.lines.find((l) => l.key === "medical").transactions.find((r) => !r.manual);
      await page.keyboard.press("Escape");
      const [y, m] = derived.date.split("-");
      await page.goto(`${t.base}/?month=${y}-${m}`);
      await page.locator(`[data-testid=tx-row][data-tx-id="${derived.tx_id}"]`).click();
      const s2 = page.getByTestId("drawer").getByTestId("tx-tax");
      await s2.locator("summary").click();
      await hasText(s2.getByTestId("tx-tax-standing"), `Claimed on ${medical.label}`);
      await hasText(s2.getByTestId("tx-tax-standing"), "by its category");
      const target = after.lines.find((l) => l.key !== "medical" && l.key !== "other");
      await s2.getByLabel("Tax line").selectOption({ label: target.label });
      await s2.getByRole("button", { name: "Move" }).click();
      await hasText(s2.getByTestId("tx-tax-standing"), `Claimed on ${target.label}`);
      await s2.getByRole("button", { name: "Back to automatic" }).click();
      await hasText(s2.getByTestId("tx-tax-standing"), `Claimed on ${medical.label}`);
    },
  },
  {
    name: "which categories count: move one onto a line, then back to the packaged lines",
    async run(t) {
      const { page } = t;
      const before = await pack(t);
      const medical = before.lines.find((l) => l.key === "medical");
      await page.goto(`${t.base}/tax?year=${YEAR}`);
      const editor = page.getByTestId("tax-mapping");
      await editor.locator("summary").click();
      await hasText(editor.getByTestId("tax-mapping-kind"), "packaged mapping is in use");
      // Groceries count toward no line in the packaged mapping; put them on the medical line.
      const groceries = editor.getByLabel("Groceries", { exact: true });
      assert.equal(await groceries.inputValue(), "");
      await groceries.selectOption({ label: medical.label });
      await editor.getByRole("button", { name: "Save lines" }).click();
      await hasText(editor.getByTestId("tax-mapping-kind"), "Your own mapping is in use");
      const mine = (await pack(t)).lines.find((l) => l.key === "medical");
      assert.ok(mine.transaction_count > medical.transaction_count, "groceries now count as medical");
      assert.ok(mine.categories.map((c) => c.toLowerCase()).includes("groceries"));
      await t.shot("tax-mapping");
      await editor.getByRole("button", { name: "Use the packaged lines" }).click();
      await hasText(editor.getByTestId("tax-mapping-kind"), "packaged mapping is in use");
      const back = (await pack(t)).lines.find((l) => l.key === "medical");
      assert.equal(back.transaction_count, medical.transaction_count);
      assert.equal(Math.round(back.total * 100), Math.round(medical.total * 100));
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
