// The same state served with DEMO_MODE=true: a visible read-only banner and every write disabled.
import { assert, hasText } from "./helpers.mjs";

export const steps = [
  {
    name: "banner on every page, and the drawer is read-only",
    async run(t) {
      const { page } = t;
      await page.goto(`${t.base}/?month=2026-11`);
      await hasText(page.getByTestId("demo-banner"), "read-only");
      await page.locator("[data-testid=tx-row]").first().click();
      const drawer = page.getByTestId("drawer");
      await drawer.waitFor();
      await hasText(drawer, "Editing is turned off");
      assert.ok(await drawer.getByRole("button", { name: "Save category" }).isDisabled());
      assert.ok(await drawer.getByRole("button", { name: "Move to trash" }).isDisabled());
      assert.ok(await drawer.getByLabel("Category", { exact: true }).isDisabled());
      await t.shot("journal-drawer");
      await page.keyboard.press("Escape");
    },
  },
  {
    name: "upload, tokens, password and switches are disabled",
    async run(t) {
      const { page } = t;
      await page.goto(`${t.base}/upload`);
      await page.getByTestId("demo-banner").waitFor();
      assert.ok(await page.getByRole("button", { name: "Choose a file" }).isDisabled());
      await t.shot("upload");
      await page.goto(`${t.base}/settings`);
      await page.getByRole("heading", { name: "API tokens" }).waitFor();
      assert.ok(await page.getByRole("button", { name: "Issue token" }).isDisabled());
      const switches = page.getByRole("switch");
      assert.ok((await switches.count()) > 0);
      for (const s of await switches.all()) assert.ok(await s.isDisabled());
      await t.shot("settings");
    },
  },
  {
    // Issue 34: the demo's targets are keyed as typed (`Groceries`), its rows `groceries`; the
    // Budget page showed $0.00 for every budgeted category. One month read on four pages.
    name: "Budget, Summary, Income and Journal show one month's figures alike",
    async run(t) {
      const { page } = t;
      const amount = (s) => Number(s.replace(/[^0-9.-]/g, ""));
      await page.goto(`${t.base}/budget?year=2026`);
      const lines = page.getByTestId("budget-category");
      await lines.first().waitFor();
      const budget = new Map();
      for (const line of await lines.all()) {
        const name = (await line.locator(".budget-cat-name").innerText()).trim();
        const facts = line.locator(".budget-facts dd");
        const month = amount((await facts.nth(1).innerText()).split(" of ")[0]);
        const ytd = amount((await facts.nth(2).innerText()).split(" of ")[0]);
        assert.ok(ytd > 0, `${name}: its year's spending shows (${ytd})`);
        budget.set(name.toLowerCase(), month);
      }
      assert.ok(budget.size >= 7, `every budgeted category is listed (${budget.size})`);
      assert.ok(budget.get("groceries") > 0, "Groceries shows this month's spending");
      const unbudgeted = page.getByTestId("unbudgeted");
      if (await unbudgeted.count()) {
        const text = (await unbudgeted.innerText()).toLowerCase();
        for (const name of budget.keys())
          assert.ok(!text.includes(`\n${name}\t`), `${name} is not "without a target"`);
      }
      await t.shot("budget-spending");

      await page.goto(`${t.base}/summary?month=2026-11`);
      const totals = page.getByTestId("summary-totals");
      await totals.waitFor();
      const spent = amount(await totals.locator(".stat-value").first().innerText());
      const deltas = page.getByTestId("category-deltas");
      for (const [name, month] of budget) {
        const row = deltas.locator("tr", { has: page.getByRole("link", { name, exact: false }) });
        if ((await row.count()) !== 1) continue;
        assert.equal(
          amount(await row.locator("td.num").first().innerText()),
          month,
          `Summary and Budget: ${name}`,
        );
      }

      await page.goto(`${t.base}/?month=2026-11`);
      const overview = page.getByTestId("journal-overview");
      await overview.waitFor();
      assert.equal(
        amount(await overview.locator(".stat-value").first().innerText()),
        spent,
        "Journal and Summary: spent",
      );

      await page.goto(`${t.base}/income?year=2026`);
      const groceries = page.locator("tr", {
        has: page.locator("td.statement-sub", { hasText: /^Groceries$/ }),
      });
      await groceries.first().waitFor();
      // Whole dollars on the statement: November is the 11th month column.
      const nov = amount(await groceries.first().locator("td.num").nth(10).innerText());
      assert.ok(
        Math.abs(nov - budget.get("groceries")) <= 1,
        `Income and Budget: groceries ${nov} vs ${budget.get("groceries")}`,
      );
    },
  },
  {
    name: "the API itself refuses writes with 405",
    async run(t) {
      const res = await t.page.request.post(`${t.base}/api/v1/auth/tokens`, { data: { label: "nope" } });
      assert.equal(res.status(), 405);
      assert.deepEqual(t.consoleErrors, []);
      assert.deepEqual(t.overflow, []);
    },
  },
];
