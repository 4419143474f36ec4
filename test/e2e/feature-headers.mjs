// Issue 26 finding 5 in the browser, against the real server (wrangler dev with [assets]): the
// dashboard's static files carry the headers of dashboard/public/_headers and no page of this origin
// can be framed (that every page runs under the policy with no violation is checked by the walk of
// every page in feature-a11y.mjs, through layout.mjs's screenChecks).
import { assert, until } from "./helpers.mjs";

function expectHeaders(path, h) {
  const csp = h["content-security-policy"] ?? "";
  assert.match(csp, /frame-ancestors 'none'/, `${path}: CSP ${csp}`);
  assert.equal(h["x-frame-options"], "DENY", `${path}: X-Frame-Options`);
  assert.equal(h["referrer-policy"], "no-referrer", `${path}: Referrer-Policy`);
  assert.equal(h["x-content-type-options"], "nosniff", `${path}: nosniff`);
  return csp;
}

export const steps = [
  {
    name: "static assets (the SPA page, its script, the favicon) and Worker routes carry the headers",
    async run(t) {
      const index = await t.page.request.get(`${t.base}/settings`);
      assert.equal(index.status(), 200);
      const html = await index.text();
      const csp = expectHeaders("/settings (SPA fallback)", index.headers());
      assert.match(csp, /script-src 'self'( 'wasm-unsafe-eval')?(;|$)/);
      assert.match(csp, /style-src 'self'(;|$)/);
      const script = /src="(\/assets\/[^"]+\.js)"/.exec(html)?.[1];
      assert.ok(script, "the built index.html names its script");
      for (const path of [script, "/favicon.svg"]) {
        const res = await t.page.request.get(`${t.base}${path}`);
        assert.equal(res.status(), 200, path);
        expectHeaders(path, res.headers());
      }
      // The _headers file itself is configuration, not a file the site serves.
      const raw = await t.page.request.get(`${t.base}/_headers`);
      assert.doesNotMatch(await raw.text(), /X-Frame-Options: DENY/);
      for (const path of ["/api/v1/health", "/docs", "/openapi.json"]) {
        const res = await t.page.request.get(`${t.base}${path}`);
        assert.equal(res.status(), 200, path);
        expectHeaders(path, res.headers());
      }
    },
  },
  {
    name: "a page of another origin cannot frame the dashboard, /settings, the docs or the API",
    async run(t) {
      const { page } = t;
      // A page of no origin of ours and with no policy of its own (a page of ours would carry a
      // CSP whose default-src would refuse the frames itself, proving nothing about frame-ancestors).
      const other = "about:blank";
      const targets = ["/", "/settings", "/docs", "/api/v1/health"];
      // The control: /journal with the four headers stripped in flight must render in its frame,
      // so a refusal below is the headers' doing, not the test's.
      const control = `${t.base}/journal`;
      await page.route(control, async (route) => {
        const res = await route.fetch();
        const headers = { ...res.headers() };
        for (const h of ["content-security-policy", "x-frame-options"]) delete headers[h];
        await route.fulfill({ response: res, headers });
      });
      await page.goto(other);
      await page.setContent(
        [...targets.map((p) => `${t.base}${p}`), control]
          .map((src, i) => `<iframe id="f${i}" src="${src}" width="400" height="300"></iframe>`)
          .join(""),
      );
      await until(async () => page.frames().length === targets.length + 2, "the frames were attached");
      await page.waitForTimeout(1500);
      const frames = page.frames().slice(1);
      const controlFrame = frames.find((f) => f.url() === control);
      assert.ok(controlFrame, `the control frame rendered: ${frames.map((f) => f.url()).join(", ")}`);
      await controlFrame.locator("#root").waitFor({ state: "attached" });
      for (const frame of frames.filter((f) => f !== controlFrame)) {
        // Chromium replaces a refused frame with its own error page.
        assert.match(frame.url(), /^chrome-error:/, `not refused: ${frame.url()}`);
        const root = await frame
          .locator("#root")
          .count()
          .catch(() => 0);
        assert.equal(root, 0, `the app rendered inside a frame of ${other}: ${frame.url()}`);
      }
    },
  },
];
