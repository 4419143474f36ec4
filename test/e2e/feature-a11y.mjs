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
const PAGES = [
  "/",
  "/review",
  "/review/ignored",
  "/budget",
  "/budget/edit",
  "/search?from=2026-01&to=2026-11&q=safeway",
  "/summary",
  "/insights",
  "/trends",
  "/merchants",
  "/income",
  "/ledger",
  "/tax",
  "/upload",
  "/statements",
  "/receipts",
  "/rules",
  "/activity",
  "/backup",
  "/settings",
  "/share",
];

async function audit(page) {
  await page.evaluate(AXE);
  return page.evaluate(async () => {
    const axe = /** @type {any} */ (window).axe;
    const res = await axe.run(document, {
      runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"] },
      resultTypes: ["violations"],
    });
    return res.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.slice(0, 4).map((n) => n.target.join(" ")),
      count: v.nodes.length,
    }));
  });
}

export const steps = [
  {
    name: "every page at 1280 and 390 px: no serious or critical axe violations",
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
      // 20 pages × 2 widths, four tabs of the signed-in context at a time: most of an audit is
      // waiting for the page's data to settle, so the tabs overlap their waits.
      const jobs = [];
      for (const [width, height] of [
        [1280, 900],
        [390, 844],
      ])
        for (const path of PAGES) jobs.push({ width, height, path });
      const found = [];
      const tab = async () => {
        const p = await page.context().newPage();
        p.setDefaultTimeout(20_000);
        try {
          for (let job = jobs.shift(); job; job = jobs.shift()) {
            const { width, height, path } = job;
            await p.setViewportSize({ width, height });
            await p.goto(`${base}${path}`);
            await p.locator("main h1").first().waitFor();
            // Let the page's data arrive (skeletons are not what a person reads).
            await p.waitForLoadState("networkidle").catch(() => {});
            await p.waitForTimeout(200);
            for (const v of await audit(p)) found.push({ width, path, v });
          }
        } finally {
          await p.close();
        }
      };
      await Promise.all([tab(), tab(), tab(), tab()]);
      const serious = [];
      const order = (f) => `${f.width === 1280 ? 0 : 1}${String(PAGES.indexOf(f.path)).padStart(2, "0")}`;
      for (const { width, path, v } of found.sort((a, b) => order(a).localeCompare(order(b)))) {
        const line = `${width}px ${path}: ${v.impact} ${v.id} ×${v.count} (${v.help}) at ${v.nodes.join(", ")}`;
        if (v.impact === "serious" || v.impact === "critical") serious.push(line);
        else console.log(`      note: ${line}`);
      }
      assert.deepEqual(serious, [], `axe found:\n${serious.join("\n")}`);
    },
  },
  {
    name: "every page at 390 and 1280 px: nothing fixed covers a control, no code on screen, the first transaction on a phone's first screen",
    async run(t) {
      const problems = await screenChecks(t, ALL_PAGES, { journalRows: true });
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
