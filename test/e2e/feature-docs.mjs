// Issue 16 in the browser: /docs (Swagger UI) and /redoc (ReDoc) are the real viewers, loaded from
// our own origin with every request that would leave this machine blocked; Swagger UI's "Try it
// out" reaches the journal; without the viewers' files the pages draw the plain offline reader.
import { assert, hasText, until } from "./helpers.mjs";

const LOCAL = new Set(["127.0.0.1", "localhost"]);

/** Every request of the context: the ones leaving this machine are aborted and remembered. */
async function guardNetwork(t) {
  if (t.state.leaving) return;
  t.state.leaving = [];
  t.state.seen = [];
  await t.context.route("**/*", (route) => {
    const url = route.request().url();
    t.state.seen.push(url);
    if (LOCAL.has(new URL(url).hostname)) return route.continue();
    t.state.leaving.push(url);
    return route.abort("internetdisconnected");
  });
}

/** The heading of an operation in ReDoc, found by its operation id. */
const redocOperation = (page, id) => page.locator(`[data-section-id="operation/${id}"] h2`).first();

export const steps = [
  {
    name: "/docs: the real Swagger UI, served from this origin, reads our OpenAPI 3.1 document",
    async run(t) {
      const { page } = t;
      page.setDefaultTimeout(20_000);
      await guardNetwork(t);
      await page.goto(`${t.base}/docs`);
      await page.locator("#swagger-ui .information-container .title").waitFor();
      await hasText(page.locator("#swagger-ui .information-container .title"), "OAS 3.1");
      const health = page.locator("#operations-health-getHealth");
      await health.waitFor();
      await hasText(health.locator(".opblock-summary"), "/api/v1/health");
      assert.equal(await page.locator("#offline").isVisible(), false, "the offline reader is showing");
      assert.equal(await page.locator("#swagger-ui .errors-wrapper").count(), 0, "Swagger UI reports errors");
      // Swagger UI 5.3x draws only the operations near the viewport: scroll through the page and
      // collect what it drew; every operation of the document must come up once.
      const doc = await (await page.request.get(`${t.base}/openapi.json`)).json();
      const want = Object.values(doc.paths).flatMap((item) =>
        Object.keys(item).filter((m) => ["get", "post", "put", "patch", "delete"].includes(m)),
      ).length;
      const drawn = new Set();
      await until(
        async () => {
          for (const id of await page
            .locator("#swagger-ui .opblock[id]")
            .evaluateAll((els) => els.map((e) => e.id)))
            drawn.add(id);
          await page.mouse.wheel(0, 700);
          return drawn.size >= want;
        },
        `all ${want} operations drawn`,
        60_000,
      );
      assert.equal(drawn.size, want);
      // The top of the page for the screenshot (the wheel's smooth scroll outlasts a scrollTo).
      await page.reload();
      await health.waitFor();
      await t.shot("swagger");
    },
  },
  {
    name: "/docs: Try it out → Execute on GET /api/v1/health shows the journal's 200",
    async run(t) {
      const { page } = t;
      // The step before leaves Swagger UI drawn at the top of /docs: drawing it again costs seconds.
      if (new URL(page.url()).pathname !== "/docs") await page.goto(`${t.base}/docs`);
      const health = page.locator("#operations-health-getHealth");
      await health.locator(".opblock-summary-control").click();
      await health.getByRole("button", { name: "Try it out" }).click();
      const answered = page.waitForResponse((r) => new URL(r.url()).pathname === "/api/v1/health");
      await health.getByRole("button", { name: "Execute" }).click();
      assert.equal((await answered).status(), 200);
      const live = health.locator(".live-responses-table tr.response td.response-col_status").first();
      await hasText(live, "200");
      await hasText(health.locator(".live-responses-table"), "version");
      await health.locator(".live-responses-table").scrollIntoViewIfNeeded();
      await t.shot("swagger-try-it-out");
    },
  },
  {
    name: "/redoc: the real ReDoc, served from this origin, renders the operations",
    async run(t) {
      const { page } = t;
      await guardNetwork(t);
      await page.goto(`${t.base}/redoc`);
      const heading = redocOperation(page, "getHealth");
      await heading.waitFor();
      await hasText(heading, "Liveness probe");
      assert.equal(await page.locator("#offline").isVisible(), false, "the offline reader is showing");
      assert.ok((await page.locator("[data-section-id^='operation/']").count()) > 50, "operations listed");
      await t.shot("redoc");
      await heading.scrollIntoViewIfNeeded();
      await t.shot("redoc-health");
    },
  },
  {
    name: "without the viewers' files both pages draw the plain reader",
    async run(t) {
      const { page } = t;
      const errorsBefore = t.consoleErrors.length;
      const missing = (route) => route.fulfill({ status: 404, body: "not here" });
      await page.route("**/_docs/**", missing);
      try {
        for (const path of ["/docs", "/redoc"]) {
          await page.goto(`${t.base}${path}`);
          const reader = page.locator("#offline");
          await reader.locator("details.op").first().waitFor();
          await hasText(reader, "/api/v1/health");
          assert.equal(await page.locator("#ui").isVisible(), false, `${path}: the viewer area still shows`);
        }
        await t.shot("offline-reader");
      } finally {
        await page.unroute("**/_docs/**", missing);
      }
      // The 404s we provoked are logged by the browser; nothing else may be.
      const provoked = t.consoleErrors.splice(errorsBefore);
      for (const e of provoked) assert.match(e, /status of 404/, e);
    },
  },
  {
    name: "no request left this machine, all of them were same-origin, no console errors, no overflow",
    async run(t) {
      assert.deepEqual(t.state.leaving, []);
      const origin = new URL(t.base).origin;
      const foreign = t.state.seen.filter((u) => !u.startsWith(`${origin}/`));
      assert.deepEqual(foreign, []);
      await until(
        async () => t.state.seen.some((u) => u.endsWith("/_docs/redoc/redoc.standalone.js")),
        "redoc asset",
      );
      assert.ok(
        t.state.seen.some((u) => u.endsWith("/_docs/swagger-ui/swagger-ui-bundle.js")),
        "swagger asset",
      );
      assert.deepEqual(t.consoleErrors, []);
      assert.deepEqual(t.overflow, []);
    },
  },
];
