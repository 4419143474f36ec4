// A deployed journal (reached by a non-loopback host name) with no password yet: the sign-in page
// asks for a setup token from the command line instead of trusting whoever arrives first.
import { assert, hasText } from "./helpers.mjs";

export const steps = [
  {
    name: "a journal on the internet without a password asks for a setup token",
    async run(t) {
      const { page } = t;
      await page.goto(`${t.base}/`);
      await page.getByRole("heading", { name: "Finish setting up" }).waitFor();
      await hasText(page.locator("main"), "npm run token -- issue --remote --label setup");
      const res = await page.evaluate(async () => (await fetch("/api/v1/config")).status);
      assert.equal(res, 401);
      await t.shot("setup");
    },
  },
  {
    name: "a wrong token is refused in words; the token from `npm run token` sets the password",
    async run(t) {
      const { page } = t;
      await page.getByLabel("Setup token").fill("fin_not-a-real-token");
      await page.getByLabel("New password (at least 8 characters)").fill("remote-setup-pass");
      await page.getByRole("button", { name: "Set password and sign in" }).click();
      await hasText(page.locator("main"), "token");
      await page.getByLabel("Setup token").fill(t.state.setupToken);
      await page.getByRole("button", { name: "Set password and sign in" }).click();
      await page
        .getByTestId("month-picker")
        .or(page.getByRole("heading", { name: "Journal" }))
        .first()
        .waitFor();
      const whoami = await page.evaluate(async () => (await fetch("/api/v1/whoami")).json());
      assert.equal(whoami.kind, "session");
      await t.shot("after-setup");
      assert.deepEqual(t.consoleErrors, []);
    },
  },
];
