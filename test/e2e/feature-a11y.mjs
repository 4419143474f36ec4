// Accessibility: axe-core (the engine browsers' own audit tools use) on every page of the seeded
// journal at desktop and phone width. Serious and critical violations fail; the rest are printed.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { assert, until } from "./helpers.mjs";
import { coveredControls, codeShapedText, PAGES as ALL_PAGES, screenChecks } from "./layout.mjs";

const require = createRequire(import.meta.url);
// Evaluated through the DevTools protocol (not a <script> tag), so the page's own CSP, which allows
// only its own scripts, stays as it is.
const AXE = readFileSync(require.resolve("axe-core/axe.min.js"), "utf8");
const PASSWORD = "correct horse battery";
// Every page of the navigation, the search with results in place of the empty one, and the share
// target's confirm page.
const PAGES = [
  ...ALL_PAGES.filter((p) => p !== "/search"),
  "/search?from=2026-01&to=2026-11&q=safeway",
  "/share",
];

/**
 * axe on the settled page. `contrast: false` leaves out color-contrast, axe's costliest rule (a
 * background worked out for every text node): colours come from the theme, not from the width, so
 * the desktop pass checks them on every page and the phone pass on the journal (where the phone's
 * own parts, the bottom bar and More, are the same as on every page); the rest runs everywhere.
 */
async function audit(page, { contrast = true } = {}) {
  await page.evaluate(AXE);
  return page.evaluate(async (contrast) => {
    const axe = /** @type {any} */ (window).axe;
    const res = await axe.run(document, {
      runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"] },
      rules: contrast ? {} : { "color-contrast": { enabled: false } },
      resultTypes: ["violations"],
    });
    return res.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.slice(0, 4).map((n) => n.target.join(" ")),
      count: v.nodes.length,
    }));
  }, contrast);
}

export const steps = [
  {
    name: "every page at 390 and 1280 px: no serious or critical axe violations, no CSP violation, nothing fixed covers a control, no code on screen, the first transaction on a phone's first screen",
    async run(t) {
      const { page, base } = t;
      await page.goto(`${base}/`);
      const signIn = page.getByRole("heading", { name: "Sign in" });
      await until(async () => (await signIn.count()) > 0 || (await page.locator("h1").count()) > 0, "a page");
      if (await signIn.count()) {
        await page.getByLabel("Password").fill(PASSWORD);
        await page.getByRole("button", { name: "Sign in" }).click();
        await page.locator("main h1").first().waitFor();
      }
      // One walk of every page at both widths: axe on the settled page, then the screen checks.
      const notes = [];
      const problems = await screenChecks(t, PAGES, {
        journalRows: true,
        audit: async (p, { path, tag }) => {
          const serious = [];
          for (const v of await audit(p, { contrast: tag === "desktop" || path === "/" })) {
            const line = `${tag} ${path}: axe ${v.impact} ${v.id} ×${v.count} (${v.help}) at ${v.nodes.join(", ")}`;
            if (v.impact === "serious" || v.impact === "critical") serious.push(line);
            else notes.push(line);
          }
          return serious;
        },
      });
      for (const line of notes.sort()) console.log(`      note: ${line}`);
      assert.deepEqual(problems, [], problems.join("\n"));
    },
  },
  {
    name: "phone: a transaction drawer's buttons all reachable, a toast never on a control",
    async run(t) {
      const { page, base } = t;
      await page.setViewportSize({ width: 390, height: 844 });
      try {
        await page.goto(`${base}/?month=2026-11`);
        await page.getByTestId("journal-day").first().waitFor();
        await page.locator("[data-testid=journal-day] .tx-row").first().click();
        const drawer = page.getByTestId("drawer");
        await drawer.waitFor();
        await page.waitForTimeout(400);
        const covered = await coveredControls(page, "[data-testid=drawer]");
        assert.deepEqual(covered, [], covered.join("\n"));
        const code = await codeShapedText(page);
        assert.deepEqual(code, [], code.join("\n"));
      } finally {
        await page.setViewportSize({ width: 1280, height: 900 });
      }
    },
  },
];
