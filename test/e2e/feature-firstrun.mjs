// First run: a fresh, empty journal on this machine says how alerts get in, offers a password and
// demo data; adding the demo fills the journal. Runs its own empty server (the shared one is seeded).
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "../../scripts/lib/net.mjs";
import { assert, hasText, until } from "./helpers.mjs";
import { PAGES, screenChecks } from "./layout.mjs";

const root = join(import.meta.dirname, "..", "..");

async function startFresh() {
  const dir = mkdtempSync(join(tmpdir(), "fj-e2e-firstrun-"));
  const [port, inspector] = [await freePort(), await freePort()];
  const child = spawn(
    process.execPath,
    [
      join(root, "scripts", "start.mjs"),
      ...["--port", String(port), "--ip", "127.0.0.1", "--persist-to", dir],
      ...["--inspector-port", String(inspector)],
    ],
    { cwd: root, detached: true, stdio: "ignore", env: { ...process.env, WRANGLER_SEND_METRICS: "false" } },
  );
  const base = `http://127.0.0.1:${port}`;
  await until(
    async () => (await fetch(`${base}/api/v1/health`).catch(() => null))?.ok,
    "the fresh server",
    240_000,
  );
  return { base, child, dir };
}

function stopFresh(fresh) {
  if (!fresh) return;
  try {
    process.kill(-fresh.child.pid, "SIGTERM");
  } catch {
    // already gone
  }
  setTimeout(() => rmSync(fresh.dir, { recursive: true, force: true }), 3000).unref();
}

/** scripts/e2e.mjs boots the empty server early, while other suites run; the step awaits it. */
export const prepare = startFresh;

export const steps = [
  {
    name: "an empty journal says how alerts get in, and offers a password and demo data",
    async run(t) {
      // Started by scripts/e2e.mjs before the suites ahead of this one (`prepare` below).
      t.state.fresh = await (t.state.prepared ?? startFresh());
      const { page } = t;
      await page.goto(`${t.state.fresh.base}/`);
      const guide = page.getByTestId("first-run");
      await guide.waitFor();
      await hasText(guide, "Email Routing");
      await hasText(page.getByTestId("first-run-mailbox"), "IMAP");
      assert.ok(await guide.getByRole("link", { name: "Upload" }).count(), "no upload link");
      await page.getByTestId("first-run-password").waitFor();
      await page.getByTestId("first-run-demo").waitFor();
      await t.shot("empty-journal");
    },
  },
  {
    name: "the empty journal at 390 and 1280 px: nothing covers a control, no code on screen, the first steps listed",
    async run(t) {
      const { page } = t;
      const steps = page.getByTestId("getting-started");
      await steps.waitFor();
      for (const k of ["password", "transaction", "bank", "budget"])
        await page.getByTestId(`step-${k}`).waitFor();
      // Every page at a phone's width, where an empty page's parts crowd first; at the desktop's the
      // journal with its guide (the demo household's walk in feature-a11y covers every page at both).
      const problems = await screenChecks({ ...t, base: t.state.fresh.base }, PAGES, { desktop: ["/"] });
      assert.deepEqual(problems, [], problems.join("\n"));
      await page.goto(`${t.state.fresh.base}/`);
      await page.getByTestId("first-run").waitFor();
    },
  },
  {
    name: "adding the demo data fills the journal",
    async run(t) {
      const { page } = t;
      // Two months of the household, not the whole year (the walk's server has the whole one): the
      // button, its progress and every loop it leaves are the same, in a fraction of the time.
      const seedUrl = "**/api/v1/setup/demo-data";
      await page.route(seedUrl, (route) => {
        const url = route.request().url();
        return route.continue(url.includes("months=") ? {} : { url: `${url}?months=2` });
      });
      await page.getByRole("button", { name: "Add demo data" }).click();
      // Not a bare "Adding…": what is happening, and for how long.
      await hasText(page.getByTestId("demo-progress"), "bank alerts");
      // The demo household goes through the real pipeline (~700 alerts): seconds idle, longer under load.
      await page.locator(".toast", { hasText: "Demo data added" }).first().waitFor({ timeout: 240_000 });
      await until(async () => (await page.getByTestId("journal-day").count()) > 3, "journal days", 15_000);
      assert.equal(
        await page.getByTestId("first-run").count(),
        0,
        "the guide stayed after the demo was added",
      );
      await page.unroute(seedUrl);
      await t.shot("after-demo");
      // Until each is done, its step stays: the demo sets a budget and brings transactions, but
      // sets no password and teaches no bank (one of its alerts waits to be taught).
      await page.getByTestId("getting-started").waitFor();
      assert.equal(await page.getByTestId("step-transaction").count(), 0, "the transaction step stayed");
      assert.equal(await page.getByTestId("step-budget").count(), 0, "the budget step stayed");
      assert.equal(await page.getByTestId("step-password").count(), 1, "the password step went");
      assert.equal(await page.getByTestId("step-bank").count(), 1, "the bank step went");
      // Every loop shows: alerts to review, a bank to teach, a statement half reviewed, a receipt to match.
      await page.goto(`${t.state.fresh.base}/review`);
      await until(
        async () => Number(await page.getByTestId("attention-count").textContent()) >= 2,
        "alerts to review",
      );
      // The untaught bank's alert waits in the list (shown by its sender, alerts@tangerine.example).
      await until(
        async () => ((await page.locator("main").textContent()) ?? "").toLowerCase().includes("tangerine"),
        "the untaught bank's alert",
        15_000,
      );
      await page.goto(`${t.state.fresh.base}/statements`);
      await hasText(page.locator("main"), "mbna-", 15_000);
      const again = await page.evaluate(
        async () => (await fetch("/api/v1/setup/demo-data", { method: "POST" })).status,
      );
      assert.equal(again, 409, "a second demo seeding was not refused");
    },
  },
  {
    name: "no console errors, and no page wider than a phone",
    async run(t) {
      stopFresh(t.state.fresh);
      // 409: the refused second seeding; ERR_FAILED: the CDN blocked in the offline docs step.
      assert.deepEqual(
        t.consoleErrors.filter((e) => !/status of 409|net::ERR_FAILED/.test(e)),
        [],
      );
      assert.deepEqual(t.overflow, []);
    },
  },
];
