// The everyday money pages on the seeded demo data (today 2026-11-21): budget and its editor,
// ledger, trends, merchants, income statement, rules, and a backup round trip through the UI.
import { readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { assert, hasText, until } from "./helpers.mjs";

/**
 * Opens a page and checks its first load, measured like the main walk: a reload with the app's code
 * cached, as a returning visitor sees it (ms from navigation start until `ready` shows). The best of
 * two reloads, because the test machine is shared and one slow reload says little about the page.
 */
async function open(t, path, ready) {
  await t.page.goto(`${t.base}${path}`);
  await t.page.locator(ready).first().waitFor();
  const times = [];
  for (let i = 0; i < 2; i++) {
    await t.page.reload();
    await t.page.locator(ready).first().waitFor();
    times.push(Math.round(await t.page.evaluate(() => performance.now())));
  }
  const ms = Math.min(...times);
  console.log(`      ${path} first load: ${times.join(" ms, ")} ms`);
  // Checked in the last step, so a slow load does not hide what the page does.
  if (ms >= 1000) t.state.slow = [...(t.state.slow ?? []), `${path}: ${ms} ms`];
  return ms;
}

const toast = (page, text) => page.locator(".toast", { hasText: text }).first().waitFor();

// The main walk sets this password before the feature suites run; alone, no sign-in is asked.
const PASSWORD = "correct horse battery";

export const steps = [
  {
    name: "signed in (when the main walk set a password)",
    async run(t) {
      const { page } = t;
      await page.goto(`${t.base}/summary`);
      const signIn = page.getByRole("heading", { name: "Sign in" });
      await until(
        async () => (await signIn.count()) > 0 || (await page.locator("h1#summary-h").count()) > 0,
        "a page",
      );
      if (await signIn.count()) {
        await page.getByLabel("Password").fill(PASSWORD);
        await page.getByRole("button", { name: "Sign in" }).click();
        await page.locator("h1#summary-h").waitFor();
      }
    },
  },
  {
    name: "navigation (desktop): the daily loop first, every page one click from home under a heading",
    async run(t) {
      const { page } = t;
      await page.goto(`${t.base}/`);
      const nav = page.getByRole("navigation", { name: "Main" });
      await nav.getByRole("heading").first().waitFor();
      const headings = await nav.getByRole("heading").allInnerTexts();
      assert.deepEqual(
        headings.map((h) => h.toLowerCase()),
        ["every day", "reports", "add data", "set up"],
      );
      const labels = await nav.getByRole("link").allInnerTexts();
      assert.deepEqual(labels.slice(0, 4), ["Journal", "Needs review", "Budget", "Search"]);
      assert.ok(labels.length >= 17, `only ${labels.length} pages in the side bar`);
      assert.equal(await page.getByRole("navigation", { name: "Every day" }).isVisible(), false);
      for (const label of ["Trends", "Statements", "Settings", "Journal"]) {
        const link = nav.getByRole("link", { name: label, exact: true });
        assert.ok(await link.isVisible(), `${label} is not one click away`);
        await link.click();
        await page.locator("h1").first().waitFor();
        assert.equal(
          await link.getAttribute("aria-current"),
          "page",
          `${label} not marked as the current page`,
        );
      }
      await t.shot("navigation");
    },
  },
  {
    name: "budget: the year at a glance with groups, pace and forecasts",
    async run(t) {
      const { page } = t;
      await open(t, "/budget?year=2026", "[data-testid=budget-overview]");
      await hasText(page.getByTestId("budget-overview"), "Spent this year");
      assert.ok((await page.getByTestId("budget-group").count()) >= 1, "no budget groups");
      assert.ok((await page.getByTestId("budget-category").count()) >= 2, "no budget categories");
      await hasText(page.getByTestId("budget-months"), "Nov");
      await t.shot("budget");
    },
  },
  {
    name: "budget editor: monthly/yearly entry, pre-fill, save, and a stale version asks to reload",
    async run(t) {
      const { page } = t;
      await open(t, "/budget/edit?year=2026", "[data-testid=budget-row]");
      const row = page.getByTestId("budget-row").first();
      const name = await row.getAttribute("data-category");
      await row.getByLabel(/entered per$/).selectOption("monthly");
      await row.getByLabel(/target$/).fill("100");
      await hasText(row, "$1,200.00 a year");
      await row.getByLabel(/entered per$/).selectOption("yearly");
      assert.equal(await row.getByLabel(/target$/).inputValue(), "1200");
      await t.shot("budget-editor");
      await page.getByTestId("prefill").click();
      await page.getByTestId("save-budget").click();
      await toast(page, "Budget saved");
      // Someone else saves in between: the next save is refused and the edit stays on screen.
      await page.evaluate(async () => {
        const cfg = await (await fetch("/api/v1/budget/config?year=2026")).json();
        const res = await fetch("/api/v1/budget/config?year=2026", {
          method: "PUT",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({
            spending_ceiling: cfg.spending_ceiling,
            categories: cfg.categories,
            groups: cfg.groups,
            targets_version: cfg.targets_version,
            groups_version: cfg.groups_version,
          }),
        });
        if (!res.ok) throw new Error(`other save failed: ${res.status}`);
      });
      const edited = page.locator(`[data-testid=budget-row][data-category="${name}"]`).getByLabel(/target$/);
      await edited.fill("4321");
      await page.getByTestId("save-budget").click();
      await page.getByTestId("stale-budget").waitFor();
      assert.equal(await edited.inputValue(), "4321", "the edit survived the conflict");
      await t.shot("budget-stale");
      await page.getByRole("button", { name: "Reload the saved budget" }).click();
      await until(
        async () => (await page.getByTestId("stale-budget").count()) === 0,
        "prompt gone after reload",
      );
    },
  },
  {
    name: "ledger: sort, filter, edit fields, bulk recategorize",
    async run(t) {
      const { page } = t;
      await open(t, "/ledger?month=2026-11", "[data-testid=ledger-row]");
      const rows = page.getByTestId("ledger-row");
      assert.ok((await rows.count()) > 20);
      await page.getByRole("button", { name: "Amount" }).click();
      const amounts = await page
        .locator("[data-testid=ledger-row] .ledger-amount")
        .evaluateAll((els) => els.map((e) => Number(e.textContent.replace(/[^\d.]/g, ""))));
      assert.deepEqual(
        amounts,
        [...amounts].sort((a, b) => b - a),
        "sorted by amount, largest first",
      );
      await t.shot("ledger");
      const first = rows.first();
      const company = (await first.getByTestId("ledger-open").textContent()).trim();
      await page.getByLabel("Filter the ledger").fill(company);
      await until(async () => (await rows.count()) >= 1, "filtered rows");
      await page.getByLabel("Filter the ledger").fill("");
      // Edit amount and merchant through the fields route.
      await rows.nth(1).getByTestId("ledger-open").click();
      const drawer = page.getByTestId("drawer");
      await drawer.waitFor();
      await drawer.getByLabel("Amount").fill("12.34");
      await drawer.getByRole("button", { name: "Save changes" }).click();
      await toast(page, "Saved");
      await page.keyboard.press("Escape");
      await until(
        async () => (await page.locator(".ledger-amount", { hasText: "$12.34" }).count()) >= 1,
        "new amount",
      );
      // Bulk: two rows to one category.
      await rows.nth(2).getByRole("checkbox").check();
      await rows.nth(3).getByRole("checkbox").check();
      await page.getByTestId("bulk-bar").waitFor();
      await page.getByLabel("Move the selection to category").selectOption("Gifts");
      await page.getByTestId("bulk-bar").getByRole("button", { name: "Apply" }).click();
      await toast(page, "2 transactions moved to Gifts");
    },
  },
  {
    name: "ledger: always for this merchant offers to re-file its earlier rows",
    async run(t) {
      const { page } = t;
      await open(t, "/ledger?month=2026-11&span=3", "[data-testid=ledger-row]");
      await page.getByLabel("Filter the ledger").fill("Netflix");
      const row = page.getByTestId("ledger-row").first();
      await row.waitFor();
      await row.getByTestId("ledger-open").click();
      const drawer = page.getByTestId("drawer");
      await drawer.getByLabel("Ledger category").selectOption("Entertainment");
      await drawer.getByRole("checkbox", { name: /^Always/ }).check();
      await drawer.getByRole("button", { name: "Save category" }).click();
      const offer = drawer.getByTestId("merchant-offer");
      await hasText(offer, "Rule saved");
      await t.shot("ledger-always");
      const move = offer.getByRole("button", { name: /^Move those/ });
      if (await move.count()) {
        await move.click();
        await offer.getByTestId("merchant-offer-done").waitFor();
      }
      await page.keyboard.press("Escape");
    },
  },
  {
    name: "ledger: add by hand, trash, restore, delete for good",
    async run(t) {
      const { page } = t;
      await open(t, "/ledger?month=2026-11", "[data-testid=ledger-row]");
      await page.getByRole("tab", { name: "Add by hand" }).click();
      const form = page.getByTestId("add-transaction");
      await form.getByLabel("Date").fill("2026-11-20");
      await form.getByLabel("Amount").fill("4.75");
      await form.getByLabel("Merchant").fill("E2E Cash Bakery");
      await t.shot("ledger-add");
      await form.getByRole("button", { name: "Add transaction" }).click();
      await toast(page, "Added E2E Cash Bakery $4.75");
      // Issue 34: the same purchase again is not dropped silently: the form shows the stored one
      // and adds a second row only when asked.
      await page.getByRole("tab", { name: "Add by hand" }).click();
      await form.getByLabel("Date").fill("2026-11-20");
      await form.getByLabel("Amount").fill("4.75");
      await form.getByLabel("Merchant").fill("E2E Cash Bakery");
      await form.getByRole("button", { name: "Add transaction" }).click();
      const dup = form.getByTestId("add-duplicate");
      await hasText(dup, "already in your journal, so nothing was added");
      await hasText(dup, "E2E Cash Bakery $4.75");
      await t.shot("ledger-add-duplicate");
      await dup.getByRole("button", { name: "Add anyway" }).click();
      await toast(page, "Added E2E Cash Bakery $4.75");
      await page.getByLabel("Filter the ledger").fill("E2E Cash Bakery");
      await until(
        async () => (await page.getByTestId("ledger-row").count()) === 2,
        "two rows after Add anyway",
      );
      // Undo on the toast takes the second one away again.
      await page
        .locator(".toast", { hasText: "Added E2E Cash Bakery" })
        .first()
        .getByRole("button", { name: "Undo" })
        .click();
      await until(async () => (await page.getByTestId("ledger-row").count()) === 1, "one row after Undo");
      const row = page.getByTestId("ledger-row").first();
      await hasText(row, "$4.75");
      await row.getByRole("checkbox").check();
      await page.getByTestId("bulk-bar").getByRole("button", { name: "Trash" }).click();
      await toast(page, "1 moved to trash");
      await page.getByRole("tab", { name: /^Trash/ }).click();
      const trashed = page.getByTestId("trash-row").filter({ hasText: "E2E Cash Bakery" });
      await trashed.waitFor();
      await t.shot("ledger-trash");
      await trashed.getByRole("button", { name: "Restore" }).click();
      await toast(page, "Restored from trash");
      await page.getByRole("tab", { name: /^Transactions/ }).click();
      await page.getByLabel("Filter the ledger").fill("E2E Cash Bakery");
      await page.getByTestId("ledger-row").first().getByRole("checkbox").check();
      await page.getByTestId("bulk-bar").getByRole("button", { name: "Trash" }).click();
      await toast(page, "1 moved to trash");
      await page.getByRole("tab", { name: /^Trash/ }).click();
      await trashed.getByRole("button", { name: "Delete for good…" }).click();
      await trashed.getByRole("button", { name: "Yes, delete for good" }).click();
      await toast(page, "Deleted for good");
      await until(async () => (await trashed.count()) === 0, "row gone for good");
    },
  },
  {
    name: "trends: months of totals and per-category bars that open a search",
    async run(t) {
      const { page } = t;
      await open(t, "/trends?month=2026-11", "[data-testid=trend-totals] .month-cols li");
      await page.getByLabel("How many months").selectOption("12");
      await until(
        async () => (await page.locator("[data-testid=trend-totals] .month-cols li").count()) === 12,
        "12 months",
      );
      await t.shot("trends");
      await page.locator(".trend-cat a").first().click();
      await page.waitForURL(/\/search\?from=2025-12&to=2026-11&category=/);
    },
  },
  {
    name: "merchants: recurring charges, burn rate, price changes, new and gone",
    async run(t) {
      const { page } = t;
      await open(t, "/merchants?month=2026-11", "[data-testid=merchant-summary]");
      await hasText(page.getByTestId("merchant-summary"), "Recurring a month");
      const table = page.getByTestId("recurring");
      await table.getByRole("row").nth(1).waitFor();
      const text = await table.innerText();
      // The demo's subscriptions and bills are monthly; its grocery store and ATM are frequent, not recurring.
      assert.match(text, /Netflix[\s\S]*Every month/);
      assert.doesNotMatch(text, /Safeway|ATM/);
      await t.shot("merchants");
    },
  },
  {
    name: "income statement: months, sections, savings rate and projection",
    async run(t) {
      const { page } = t;
      await open(t, "/income?year=2026", "[data-testid=income-table]");
      await hasText(page.getByTestId("income-table"), "Savings rate");
      await hasText(page.getByTestId("income-projection"), "over a full year");
      await t.shot("income");
    },
  },
  {
    name: "rules: add and delete an override, an alias and an ignore rule",
    async run(t) {
      const { page } = t;
      await open(t, "/rules", "[data-testid=rules-overrides] h2");
      await page.getByTestId("rule-suggestions").waitFor();
      await page.locator("#categories").waitFor();
      await t.shot("rules-top");
      const ov = page.getByTestId("rules-overrides");
      await ov.getByLabel("Merchant", { exact: true }).fill("E2E Rule Shop");
      // Exact: with the demo's 30 merchant rules the list shows its filter box ("Filter always this category").
      await ov.getByLabel("Category", { exact: true }).selectOption("Gifts");
      await ov.getByRole("button", { name: "Add" }).click();
      await toast(page, "Rule saved");
      await hasText(ov, "E2E Rule Shop");
      const al = page.getByTestId("rules-aliases");
      await al.getByLabel("Raw name").fill("E2E RAW SHOP 123");
      await al.getByLabel("Show as").fill("E2E Shop");
      await al.getByRole("button", { name: "Add" }).click();
      await hasText(al, "E2E RAW SHOP 123");
      const ig = page.getByTestId("rules-ignore");
      await ig.getByLabel("Pattern").fill("e2e transfer");
      await ig.getByRole("button", { name: "Add and apply" }).click();
      await hasText(ig, "e2e transfer");
      await t.shot("rules");
      await ov.getByRole("button", { name: "Delete E2E Rule Shop" }).click();
      await until(
        async () => !((await ov.textContent()) ?? "").includes("E2E Rule Shop"),
        "override deleted",
      );
    },
  },
  {
    name: "backup: download, then restore it through preview and apply",
    async run(t) {
      const { page } = t;
      await open(t, "/backup", "[data-testid=download-backup]");
      // The demo's ~700 raw emails are past what one request streams (200 files): the zip is built
      // in steps, its progress shown on this page, and it downloads once done (issue 36).
      const [download] = await Promise.all([
        page.waitForEvent("download", { timeout: 120_000 }),
        (async () => {
          await page.getByTestId("download-backup").click();
          const progress = page.getByTestId("backup-progress");
          if (
            await progress.waitFor({ state: "visible", timeout: 5000 }).then(
              () => true,
              () => false,
            )
          ) {
            await hasText(progress, "rows");
            await t.shot("backup-progress");
          }
        })(),
      ]);
      const file = join(tmpdir(), `fj-e2e-${Date.now()}.zip`);
      await download.saveAs(file);
      assert.ok(readFileSync(file).length > 1000, "backup has content");
      await page.getByTestId("backup-file").setInputFiles(file);
      await page.getByRole("button", { name: "Check this backup" }).click();
      const preview = page.getByTestId("restore-preview");
      await hasText(preview, "transactions");
      await t.shot("backup-preview");
      await page.getByTestId("apply-restore").click();
      await hasText(page.getByTestId("restore-result"), "Restored.");
      await t.shot("backup-restored");
      // The demo's stored files past the first 200 are written back in queued steps (issue 36): the
      // next steps time page loads, so they start once those steps are done.
      await until(
        async () =>
          (await page.evaluate(() => fetch("/api/v1/data/import/files/current").then((r) => r.json())))
            .status !== "running",
        "the restore's remaining files written",
        60_000,
      );
    },
  },
  {
    name: "undo from the saved toast: a category change is reverted where it happened",
    async run(t) {
      const { page } = t;
      await open(t, "/ledger?month=2026-11", "[data-testid=ledger-row]");
      await page.getByTestId("ledger-row").nth(4).getByTestId("ledger-open").click();
      const drawer = page.getByTestId("drawer");
      const select = drawer.getByLabel("Ledger category");
      const before = await select.inputValue();
      const next = before === "Gifts" ? "Pets" : "Gifts";
      await select.selectOption(next);
      await drawer.getByRole("button", { name: "Save category" }).click();
      const saved = page.locator(".toast", { hasText: "Category saved" }).first();
      await saved.getByRole("button", { name: "Undo" }).waitFor();
      await t.shot("undo-toast");
      await saved.getByRole("button", { name: "Undo" }).click();
      await toast(page, "Undone");
      await until(async () => (await select.inputValue()) === before, `the category back to ${before}`);
      await page.keyboard.press("Escape");
    },
  },
  {
    name: "search box: / and Ctrl+K jump to a category, a month and an amount",
    async run(t) {
      const { page } = t;
      await page.goto(`${t.base}/summary`);
      await page.locator("h1#summary-h").waitFor();
      await page.keyboard.press("/");
      const box = page.getByTestId("search-box");
      await box.waitFor();
      await box.getByRole("combobox").fill("groc");
      await hasText(box, "Groceries");
      await t.shot("search-box");
      await page.keyboard.press("Enter");
      await page.waitForURL(/\/search\?from=\d{4}-\d{2}&to=\d{4}-\d{2}&category=Groceries/);
      await page.getByTestId("search-results").waitFor();
      await page.keyboard.press("Control+k");
      await box.getByRole("combobox").fill("oct 2026");
      await page.keyboard.press("Enter");
      await page.waitForURL(/\/\?month=2026-10$/);
      await page.getByTestId("journal-day").first().waitFor();
      await page.getByTestId("open-search-box").click();
      await box.getByRole("combobox").fill("$20.99");
      await page.keyboard.press("Enter");
      await page.waitForURL(/min_amount=20.99&max_amount=20.99/);
      await hasText(page.getByTestId("search-results"), "Netflix");
      // A merchant of this month, chosen with the arrow keys; Escape closes without moving.
      await page.keyboard.press("/");
      await box.getByRole("combobox").fill("safeway");
      await hasText(box, "Safeway #1432");
      const options = await box.getByRole("option").allTextContents();
      const at = options.findIndex((o) => o.includes("Safeway #1432"));
      for (let i = 0; i < at; i++) await page.keyboard.press("ArrowDown");
      await page.keyboard.press("Enter");
      await page.waitForURL(/company=Safeway\+%231432|company=Safeway%20%231432/);
      await page.keyboard.press("/");
      await box.waitFor();
      await page.keyboard.press("Escape");
      // Give React its render before counting (the box closes on the next frame).
      await box.waitFor({ state: "detached", timeout: 3000 }).catch(() => {});
      assert.equal(await box.count(), 0, "Escape left the search box open");
    },
  },
  {
    name: "phone: a bottom bar for the daily loop, More opens the rest by heading; totals do not overlap; summary bars open a search",
    async run(t) {
      const { page } = t;
      await page.setViewportSize({ width: 390, height: 844 });
      try {
        await page.goto(`${t.base}/summary?month=2026-11`);
        await page.locator("h1#summary-h").waitFor();
        assert.equal(await page.locator("#main-nav").isVisible(), false, "the side menu shows at 390 px");
        // The daily loop sits in a bottom bar; the current page (Summary, not in it) names "More".
        const bottom = page.getByRole("navigation", { name: "Every day" });
        for (const name of ["Journal", "Review", "Budget", "Search"])
          assert.ok(
            await bottom.getByRole("link", { name }).isVisible(),
            `${name} missing from the bottom bar`,
          );
        assert.match(await page.getByTestId("menu-button").innerText(), /Summary/);
        assert.match(await page.getByTestId("current-place").innerText(), /Summary/);
        await page.getByTestId("menu-button").click();
        const nav = page.locator("#main-nav");
        await nav.getByRole("link", { name: "Statements" }).waitFor();
        for (const heading of ["Reports", "Add data", "Set up"])
          assert.ok(await nav.getByRole("heading", { name: heading }).isVisible(), `no ${heading} heading`);
        const right = await nav.evaluate((n) =>
          Math.max(...[...n.querySelectorAll("a")].map((a) => a.getBoundingClientRect().right)),
        );
        assert.ok(right <= 390, `a menu item ends at ${right}px`);
        await t.shot("phone-menu");
        await page.setViewportSize({ width: 390, height: 844 });
        await nav.getByRole("link", { name: "Statements" }).click();
        await page.waitForURL(/\/statements$/);
        assert.equal(await nav.isVisible(), false, "the menu stayed open after choosing a page");
        await bottom.getByRole("link", { name: "Budget" }).click();
        await page.waitForURL(/\/budget$/);
        assert.equal(await bottom.getByRole("link", { name: "Budget" }).getAttribute("aria-current"), "page");
        await page.goto(`${t.base}/search?from=2026-01&to=2026-11&q=safeway`);
        const values = page.locator("[data-testid=search-summary] .stat-value");
        await values.first().waitFor();
        const boxes = await values.evaluateAll((els) =>
          els.map((e) => e.getBoundingClientRect()).map((r) => [r.left, r.right, r.top]),
        );
        for (let i = 1; i < boxes.length; i++) {
          const [l, , top] = boxes[i];
          const [, r, prevTop] = boxes[i - 1];
          assert.ok(top !== prevTop || l >= r, `search totals overlap: ${JSON.stringify(boxes)}`);
        }
        const wide = await values.evaluateAll(
          (els) => els.filter((e) => e.scrollWidth > e.clientWidth + 1).length,
        );
        assert.equal(wide, 0, "a search total is cut off");
        await t.shot("search-totals");
      } finally {
        await page.setViewportSize({ width: 1280, height: 900 });
      }
      await page.goto(`${t.base}/summary?month=2026-11`);
      await page.locator(".bar-link a").first().waitFor();
      await page.locator(".bar-link a").first().click();
      await page.waitForURL(/\/search\?from=2026-11&to=2026-11&category=/);
      await page.getByTestId("search-results").waitFor();
    },
  },
  {
    name: "budget editor: leaving with unsaved changes asks, and staying keeps them",
    async run(t) {
      const { page } = t;
      await page.goto(`${t.base}/budget/edit?year=2026`);
      const ceiling = page.getByLabel("Yearly ceiling");
      await ceiling.waitFor();
      const was = await ceiling.inputValue();
      await ceiling.fill(String(Number(was || 0) + 123));
      const asked = [];
      const answer = (ok) => (d) => {
        asked.push(d.message());
        return ok ? d.accept() : d.dismiss();
      };
      // Declined: still in the editor, the change still there (a link, then Back).
      const stay = answer(false);
      page.on("dialog", stay);
      await page.getByRole("link", { name: "Back to the budget" }).click();
      await page.waitForTimeout(300);
      assert.match(page.url(), /\/budget\/edit/);
      assert.equal(await ceiling.inputValue(), String(Number(was || 0) + 123));
      // Back as the browser's button does (a same-document history step: no page load to wait for).
      await page.evaluate(() => history.back());
      await page.waitForTimeout(300);
      assert.match(page.url(), /\/budget\/edit/);
      page.off("dialog", stay);
      assert.ok(asked.length >= 2 && /not saved/.test(asked[0]), `asked: ${asked.join(" | ")}`);
      // Accepted: the page goes, nothing saved.
      const go = answer(true);
      page.on("dialog", go);
      await page.getByRole("link", { name: "Back to the budget" }).click();
      await page.waitForURL(/\/budget\?/);
      page.off("dialog", go);
    },
  },
  {
    name: "every page's first load under a second",
    async run(t) {
      assert.deepEqual(t.state.slow ?? [], []);
    },
  },
  {
    name: "no console errors, and no page wider than a phone",
    async run(t) {
      assert.deepEqual(t.consoleErrors, []);
      assert.deepEqual(t.overflow, []);
    },
  },
];
