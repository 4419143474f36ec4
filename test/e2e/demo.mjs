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
    name: "the API itself refuses writes with 405",
    async run(t) {
      const res = await t.page.request.post(`${t.base}/api/v1/auth/tokens`, { data: { label: "nope" } });
      assert.equal(res.status(), 405);
      assert.deepEqual(t.consoleErrors, []);
      assert.deepEqual(t.overflow, []);
    },
  },
];
