import { join } from "node:path";

// Checks of what a person sees, shared by the suites that walk every page (feature-a11y on the demo
// household, feature-firstrun on an empty journal): nothing fixed or sticky covers a control, no
// internal code on screen, the journal's first row on a phone's first screen.

/** Every page of the app a person reaches from the navigation. */
export const PAGES = [
  "/",
  "/review",
  "/review/ignored",
  "/budget",
  "/budget/edit",
  "/search",
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
];

/**
 * Each visible control (within `scope`, a CSS selector, or the whole page) scrolled to the middle of
 * the screen as a person would, then asked what sits on its centre: the control itself or something
 * inside it, or its own label. Anything else (the bottom bar, a sticky bar, a toast, a drawer's
 * edge) covers it. Returns one line per covered control.
 */
export function coveredControls(page, scope = null) {
  return page.evaluate((scope) => {
    const root = scope ? document.querySelector(scope) : document;
    if (!root) return [`no ${scope}`];
    const sel =
      'a[href], button, input:not([type="hidden"]), select, textarea, summary, [role="button"], [role="tab"], [role="switch"]';
    const out = [];
    const name = (el) =>
      `${el.tagName.toLowerCase()} "${(el.getAttribute("aria-label") || el.textContent || el.getAttribute("name") || el.id || "").trim().slice(0, 40)}"`;
    const what = (el) => {
      if (!el) return "nothing";
      const c = el.closest("[class]");
      return `${el.tagName.toLowerCase()}${c ? `.${String(c.className).split(" ")[0]}` : ""}`;
    };
    const visible = (el) => {
      if (el.closest("[hidden], [inert], .skip-link, details:not([open]) > :not(summary)")) return false;
      const style = getComputedStyle(el);
      if (style.visibility === "hidden" || style.display === "none" || Number(style.opacity) === 0)
        return false;
      const r = el.getBoundingClientRect();
      return r.width >= 4 && r.height >= 4;
    };
    const pinned = (el) => {
      if (scope) return false; // inside a drawer: scrolled within it like the rest
      for (let e = el; e && e !== document.body; e = e.parentElement) {
        const p = getComputedStyle(e).position;
        if (p === "sticky" || p === "fixed") return true;
      }
      return false;
    };
    const check = (el, seen) => {
      const r = el.getBoundingClientRect();
      const x = r.left + r.width / 2;
      const y = r.top + r.height / 2;
      if (x < 0 || y < 0 || x >= innerWidth || y >= innerHeight) return;
      const hit = document.elementFromPoint(x, y);
      if (!hit || hit === el || el.contains(hit) || hit.contains(el)) return;
      const label = hit.closest("label");
      if (label && (label.control === el || label.contains(el))) return;
      const line = `${name(el)} at (${Math.round(x)}, ${Math.round(y)}) is under ${what(hit)}`;
      if (!seen.has(name(el))) out.push(line);
      seen.add(name(el));
    };
    const controls = [...root.querySelectorAll(sel)].filter(visible);
    const seen = new Set();
    // What sticks (a save bar, a drawer's foot) at the top, the middle and the end of the page.
    const max = document.documentElement.scrollHeight - innerHeight;
    for (const y of [0, Math.round(max / 2), max]) {
      window.scrollTo(0, y);
      for (const el of controls) if (pinned(el)) check(el, seen);
    }
    // Everything else as a person reaches it: scrolled to the middle of the screen (or as near as
    // the page lets it come: the last control of a page stops above the bottom bar, or not).
    // A long list repeats one row's controls hundreds of times (each scroll is a layout of the whole
    // page): its first 80 and last 20 stand for the rest, as a person meets them scrolling.
    const loose = controls.filter((el) => !pinned(el));
    const walked = loose.length > 100 ? [...loose.slice(0, 80), ...loose.slice(-20)] : loose;
    for (const el of walked) {
      el.scrollIntoView({ block: "center", inline: "center" });
      check(el, seen);
    }
    window.scrollTo(0, 0);
    return out;
  }, scope);
}

/**
 * Text on screen that reads like code: snake_case or kebab words an API uses, ids (pf_1234…, long
 * hex), validator phrases, "1 transactions". Text in <code>, <pre>, <kbd> and form values is left
 * out (a setting's name shown as such, a file name).
 */
export function codeShapedText(page) {
  return page.evaluate(() => {
    const patterns = [
      [/\b[a-z]+(?:_[a-z0-9]+)+\b/, "snake_case"],
      [/\b[a-z]{1,4}_[0-9a-f]{6,}/i, "an id"],
      [/\b[0-9a-f]{16,}\b/i, "a hex id"],
      [
        /Request validation failed|Too (big|small): expected|expected (number|string)|Invalid (input|enum)/i,
        "a validator",
      ],
      [/\b1 (transactions|rows|alerts|emails|files|receipts|statements|days)\b/, "a plural after 1"],
      [/\b(undefined|null|NaN|\[object Object\])\b/, "a program value"],
      [/try again later\b/i, "a lockout without when"],
    ];
    const found = new Set();
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const text = n.nodeValue?.trim();
      if (!text) continue;
      const el = n.parentElement;
      if (!el || el.closest("code, pre, kbd, script, style, noscript, [hidden]")) continue;
      // Text of a closed <details> or a hidden part is not on screen.
      if (el.checkVisibility ? !el.checkVisibility() : el.offsetParent === null) continue;
      for (const [re, kind] of patterns) {
        const m = text.match(re);
        if (m) found.add(`${kind}: "${m[0]}" in "${text.slice(0, 80)}"`);
      }
    }
    return [...found];
  });
}

/**
 * Walks `paths` at a phone's 390×844 and a desktop's 1280×800 (a screenshot of each kept under
 * `layout-`), `tabs` pages of the signed-in context at a time (most of a visit is waiting for the
 * page's data to settle, so the tabs overlap their waits), and returns every problem found, sorted:
 * a covered control, code-shaped text, on a phone the journal's first transaction below the first
 * screen (`journalRows`), a Content-Security-Policy violation, on the desktop the sidebar's last link (Settings) below the fold, and
 * whatever `audit(page, {path, tag})` returns for each settled page (checked before anything is
 * scrolled or unfolded). `desktop`: the paths also walked at 1280 px (all of them unless given).
 */
export async function screenChecks(
  t,
  paths,
  { journalRows = false, tabs = 3, audit = null, desktop = paths } = {},
) {
  const jobs = [];
  for (const path of paths) jobs.push({ width: 390, height: 844, tag: "phone", path });
  for (const path of desktop) jobs.push({ width: 1280, height: 800, tag: "desktop", path });
  const problems = [];
  const tab = async () => {
    const page = await t.page.context().newPage();
    page.setDefaultTimeout(20_000);
    // A fresh server of another suite may be booting beside this walk (scripts/e2e.mjs `prepare()`).
    page.setDefaultNavigationTimeout(45_000);
    // Every Content-Security-Policy violation the page meets while it loads and settles.
    await page.addInitScript(() => {
      window.__csp = [];
      document.addEventListener("securitypolicyviolation", (e) =>
        window.__csp.push(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`),
      );
    });
    try {
      for (let job = jobs.shift(); job; job = jobs.shift())
        problems.push(...(await visit(t, page, job, { journalRows, audit })));
    } finally {
      await page.close();
    }
  };
  await Promise.all(Array.from({ length: tabs }, tab));
  return problems.sort();
}

async function visit(t, page, { width, height, tag, path }, { journalRows, audit }) {
  const { base } = t;
  const problems = [];
  await page.setViewportSize({ width, height });
  await page.goto(`${base}${path}`);
  await page.locator("main h1").first().waitFor();
  await page.waitForLoadState("networkidle").catch(() => {});
  await page
    .waitForFunction(() => !document.querySelector(".loading"), null, { timeout: 15_000 })
    .catch(() => {});
  await page.waitForTimeout(150);
  const name = `layout-${tag}-${path.replace(/\W+/g, "-").replace(/^-|-$/g, "") || "journal"}`;
  await page
    .screenshot({ path: join(t.shotsDir ?? "test-results/screenshots", `${name}.png`) })
    .catch(() => {});
  for (const v of await page.evaluate(() => window.__csp ?? [])) problems.push(`${tag} ${path}: CSP ${v}`);
  if (audit) problems.push(...(await audit(page, { path, tag })));
  // Measured as the page first shows, before any folded part is opened below.
  if (path === "/" && tag === "phone" && journalRows) {
    const y = await page.evaluate(() => {
      const row = document.querySelector("[data-testid=journal-day] .tx-row");
      return row ? row.getBoundingClientRect().bottom : null;
    });
    const bar = await page.evaluate(
      () => document.querySelector(".bottombar")?.getBoundingClientRect().top ?? innerHeight,
    );
    if (y === null || y > bar)
      problems.push(`phone /: the first transaction ends at y=${y}, the first screen at ${bar}`);
  }
  for (const c of await coveredControls(page)) problems.push(`${tag} ${path}: ${c}`);
  // What folded parts say too ("What changed" in Activity, a row's details).
  await page.evaluate(() => {
    for (const d of document.querySelectorAll("main details")) d.open = true;
  });
  for (const c of await codeShapedText(page)) problems.push(`${tag} ${path}: ${c}`);
  if (path === "/" && tag === "desktop") {
    const link = page
      .getByRole("navigation", { name: "Main" })
      .getByRole("link", { name: "Settings", exact: true });
    const box = await link.boundingBox();
    if (!box || box.y + box.height > height)
      problems.push(`desktop: the sidebar's Settings link is at y=${box?.y} of ${height}`);
  }
  return problems;
}
