// npm run test:e2e: browser tests of the dashboard against the real Worker.
// Builds the dashboard, seeds demo data into a throwaway state folder (fixed --today so the months
// are stable), starts `scripts/start.mjs` on a free port, and walks test/e2e/walk.mjs in Debian's
// Chromium through playwright-core; then restarts the same state with DEMO_MODE=true and walks
// test/e2e/demo.mjs. Screenshots go to test-results/screenshots/. Ends with "N passed, N failed".
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import {
  createWriteStream,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { chromium } from "playwright-core";
import { ensureDashboardDist, root } from "./lib/dashboard.mjs";
import { freePort } from "./lib/net.mjs";
import { seedThrough } from "./lib/demo-seed.mjs";
import { createBridge } from "./model-bridge.mjs";

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const TODAY = "2026-11-21";
// E2E_RESULTS: another results folder (parallel runs); E2E_ONLY=a,b: only the named suites
// (walk, demo, remote, or a feature suite: test/e2e/feature-<name>.mjs, walked on the seeded server).
const results = process.env.E2E_RESULTS ?? join(root, "test-results");
const only = process.env.E2E_ONLY ? new Set(process.env.E2E_ONLY.split(",").map((s) => s.trim())) : null;
const wanted = (name) => !only || only.has(name);
const featureSuites = readdirSync(join(root, "test", "e2e"))
  .filter((f) => /^feature-[a-z0-9-]+\.mjs$/.test(f))
  .sort()
  .map((f) => ({ name: f.slice("feature-".length, -".mjs".length), file: f }));
const shotsDir = join(results, "screenshots");
const started = Date.now();
let passed = 0;
let failed = 0;

function log(line) {
  process.stdout.write(`${line}\n`);
}

/** Starts the Worker (wrangler dev via scripts/start.mjs) in its own process group. */
async function startServer(stateDir, extra = [], { npm = false } = {}) {
  const port = await freePort();
  const inspector = await freePort();
  const logFile = join(stateDir, `server-${port}.log`);
  const out = createWriteStream(logFile);
  // `npm start`, as a person or a process manager runs it (its own lines count in the start-up
  // budget; SIGTERM goes to npm alone), or node on start.mjs.
  const [cmd, ...launcher] = npm
    ? ["npm", "start", "--"]
    : [process.execPath, join(root, "scripts", "start.mjs")];
  const child = spawn(
    cmd,
    [
      ...launcher,
      "--port",
      String(port),
      "--ip",
      "127.0.0.1",
      "--persist-to",
      stateDir,
      "--inspector-port",
      String(inspector),
      ...extra,
    ],
    {
      cwd: root,
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
      // npm's `#!/usr/bin/env node` finds the node running this script first.
      env: {
        ...process.env,
        PATH: `${dirname(process.execPath)}:${process.env.PATH}`,
        WRANGLER_SEND_METRICS: "false",
      },
    },
  );
  child.stdout.pipe(out);
  child.stderr.pipe(out);
  const base = `http://127.0.0.1:${port}`;
  // Migrations on a fresh state take seconds idle, minutes on a loaded shared machine.
  const deadline = Date.now() + 240_000;
  let exited = null;
  child.once("exit", (code) => {
    exited = code ?? -1;
  });
  while (Date.now() < deadline) {
    if (exited !== null) break;
    try {
      const res = await fetch(`${base}/api/v1/health`);
      if (res.ok) return { base, child, logFile };
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 300));
  }
  stopServer({ child });
  throw new Error(
    `the server did not become healthy on ${base}:\n${readFileSync(logFile, "utf8").slice(-4000)}`,
  );
}

async function stopServer({ child }, { only = false } = {}) {
  if (!child || child.exitCode !== null) return;
  const gone = new Promise((r) => child.once("exit", r));
  try {
    // `only`: the launcher alone (npm), as a process manager signals it; it must stop the rest.
    process.kill(only ? child.pid : -child.pid, "SIGTERM");
  } catch {
    return;
  }
  const timer = setTimeout(() => {
    try {
      process.kill(-child.pid, "SIGKILL");
    } catch {
      // already gone
    }
  }, 5000);
  await gone;
  clearTimeout(timer);
}

function launchBrowser(extraArgs = []) {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      ...extraArgs,
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
}

/** A page with its console errors collected; `shot(name)` saves desktop and phone screenshots. */
async function openPage(browser, base, prefix) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true });
  const page = await context.newPage();
  page.setDefaultTimeout(10_000);
  const consoleErrors = [];
  // The browser itself logs each non-2xx fetch; 401/405/409/422 are answers the tests provoke.
  const expected = /Failed to load resource: the server responded with a status of (401|405|409|422)/;
  page.on("console", (m) => {
    if (m.type() === "error" && !expected.test(m.text())) consoleErrors.push(m.text());
  });
  page.on("pageerror", (e) => consoleErrors.push(`page error: ${e.message}`));
  const overflow = [];
  let n = 0;
  const shot = async (name) => {
    n++;
    const file = `${prefix}${String(n).padStart(2, "0")}-${name}`;
    await page.waitForTimeout(150);
    await page.screenshot({ path: join(shotsDir, `${file}-desktop.png`) });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.waitForTimeout(150);
    const wide = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    if (wide > 0) overflow.push(`${file}: ${wide}px wider than a 390px phone`);
    await page.screenshot({ path: join(shotsDir, `${file}-phone.png`) });
    await page.setViewportSize({ width: 1280, height: 900 });
  };
  return { context, page, consoleErrors, overflow, shot, base, state: {}, shotsDir };
}

async function runSuite(name, file, browser, base, prefix, state = {}) {
  const { steps } = await import(join(root, "test", "e2e", file));
  const t = await openPage(browser, base, prefix);
  Object.assign(t.state, state);
  for (const step of steps) {
    const t0 = Date.now();
    try {
      await step.run(t);
      passed++;
      log(`  ✔ ${name}: ${step.name} (${Date.now() - t0} ms)`);
    } catch (err) {
      failed++;
      log(`  ✖ ${name}: ${step.name} (${Date.now() - t0} ms)`);
      log(String(err?.stack ?? err).replace(/^/gm, "      "));
      const safe = step.name.replace(/[^a-z0-9]+/gi, "-").toLowerCase();
      await t.page.screenshot({ path: join(results, `failure-${prefix}${safe}.png`) }).catch(() => {});
    }
  }
  await t.context.close();
}

async function main() {
  // Tests install nothing: `npm test` and .ci/run install Chromium before any test starts.
  if (!existsSync(CHROMIUM))
    throw new Error(
      `Chromium is not at ${CHROMIUM}: run \`bash scripts/chromium.sh\` (or set CHROMIUM_PATH); \`npm test\` does it first`,
    );
  rmSync(shotsDir, { recursive: true, force: true });
  mkdirSync(shotsDir, { recursive: true });
  ensureDashboardDist({ quiet: true });
  if (existsSync(join(root, "dashboard", "dist", ".placeholder")))
    throw new Error("the dashboard did not build");

  const stateDir = mkdtempSync(join(tmpdir(), "fj-e2e-"));
  let server = null;
  let browser = null;
  let bridge = null;
  const bridgeLog = [];
  // The remote suite's fresh journal starts now, beside the seeded one (its own state folder), so
  // its wrangler start overlaps the other suites instead of adding to them.
  const fresh = wanted("remote") ? startFresh() : null;
  fresh?.catch(() => {});
  try {
    browser = await launchBrowser();
    const features = featureSuites.filter((f) => wanted(f.name));
    if (wanted("walk") || features.length || wanted("demo")) {
      // A model bridge whose cli_a is a stand-in script, so the insights walk can generate.
      const bridgeToken = randomBytes(24).toString("base64url");
      // cli_b answers forced tool calls (categorization); each run is logged as "<provider> exit=…",
      // so a suite can count what reached the bridge (t.state.bridgeLog).
      const stand = (name) => [process.execPath, join(root, "test", "fixtures", "bridge", name)];
      bridge = createBridge(
        {
          commands: { cli_a: stand("briefing.mjs"), cli_b: stand("good.mjs") },
          token: bridgeToken,
          timeoutMs: 60_000,
        },
        (line) => bridgeLog.push(line),
      );
      const bridgePort = await freePort();
      await new Promise((resolve) => bridge.listen(bridgePort, "127.0.0.1", resolve));
      server = await startServer(stateDir, [
        "--var",
        `MODEL_BRIDGE_URL:http://127.0.0.1:${bridgePort}`,
        "--var",
        `MODEL_BRIDGE_TOKEN:${bridgeToken}`,
        // No hosted model and no mailbox, whatever .dev.vars says (as `npm run seed:demo`).
        "--var",
        "MODEL_API_KEY:",
        "--var",
        "IMAP_HOST:",
      ]);
      log(`e2e: server on ${server.base}`);
      // The demo household, seeded once through this server's own pipeline (fixed --today so the
      // months are stable); the demo-mode run below restarts the same state.
      const seeded = await seedThrough(server.base, { today: TODAY });
      quietAfterDemo(server);
      log(
        `e2e: demo data seeded (today ${TODAY}: ${seeded.transactions} transactions in ${(seeded.ms / 1000).toFixed(1)} s) at ${Math.round((Date.now() - started) / 1000)} s`,
      );
      if (wanted("walk")) await runSuite("walk", "walk.mjs", browser, server.base, "");
      // A suite that needs its own server exports `prepare()`: those boot now, after the walk's
      // timed first load, while the suites before them run; the suite awaits and stops its own.
      const prepared = new Map();
      for (const f of features) {
        const mod = await import(join(root, "test", "e2e", f.file));
        if (typeof mod.prepare !== "function") continue;
        const ready = mod.prepare();
        ready.catch(() => {});
        prepared.set(f.name, ready);
      }
      for (const f of features)
        await runSuite(f.name, f.file, browser, server.base, `${f.name}-`, {
          bridgeLog,
          prepared: prepared.get(f.name),
        });
      await stopServer(server);
    }

    // The demo-mode restart of the seeded state and the fresh journal's first run are independent
    // (their own servers and browser contexts): they run side by side.
    const tail = [];
    if (wanted("demo"))
      tail.push(
        (async () => {
          server = await startServer(stateDir, ["--var", "DEMO_MODE:true"]);
          log(`e2e: demo-mode server on ${server.base}`);
          await runSuite("demo", "demo.mjs", browser, server.base, "demo-");
          await stopServer(server);
        })(),
      );
    // A fresh, empty journal reached by a non-loopback name (mapped to 127.0.0.1 inside Chromium).
    if (fresh) tail.push(fresh.then(remoteSuite));
    const failures = (await Promise.allSettled(tail)).filter((r) => r.status === "rejected");
    if (failures.length) throw failures[0].reason;
  } catch (err) {
    failed++;
    log(`  ✖ e2e setup: ${String(err?.stack ?? err)}`);
  } finally {
    if (server) await stopServer(server);
    if (browser) await browser.close().catch(() => {});
    if (bridge) bridge.close();
    const f = await fresh?.catch(() => null);
    if (f) {
      await stopServer(f.server);
      rmSync(f.dir, { recursive: true, force: true });
    }
    rmSync(stateDir, { recursive: true, force: true });
  }
  log(`e2e: screenshots in ${shotsDir}; ${Math.round((Date.now() - started) / 1000)} s in all`);
  log(`${passed} passed, ${failed} failed`);
  process.exit(failed ? 1 : 0);
}

/** A fresh journal (its own state folder) served, and a setup token issued for it. */
async function startFresh() {
  const dir = mkdtempSync(join(tmpdir(), "fj-e2e-remote-"));
  let server = null;
  try {
    server = await startServer(dir, [], { npm: true });
    return { dir, server, setupToken: await issueSetupToken(dir) };
  } catch (err) {
    if (server) await stopServer(server);
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
}

function issueSetupToken(dir) {
  // Not spawnSync: the seeded server starts meanwhile in this process.
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [join(root, "scripts", "token.mjs"), "issue", "--label", "setup", "--persist-to", dir],
      { cwd: root, env: { ...process.env, WRANGLER_SEND_METRICS: "false" } },
    );
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (c) => {
      stdout += c;
    });
    child.stderr.on("data", (c) => {
      stderr += c;
    });
    child.on("error", reject);
    child.on("close", (code) =>
      code === 0
        ? resolve(stdout.trim())
        : reject(new Error(`issuing a setup token failed (exit ${code}):\n${stdout}\n${stderr}`)),
    );
  });
}

/** A fresh journal's first-run setup, reached by a non-loopback name. */
async function remoteSuite(fresh) {
  const { server, setupToken } = fresh;
  try {
    const remote = await launchBrowser(["--host-resolver-rules=MAP journal.test 127.0.0.1"]);
    try {
      const base = server.base.replace("127.0.0.1", "journal.test");
      log(`e2e: fresh server as ${base}`);
      await runSuite("remote", "remote.mjs", remote, base, "remote-", { setupToken });
    } finally {
      await remote.close().catch(() => {});
    }
  } finally {
    const t0 = Date.now();
    await stopServer(server, { only: true });
    await startupChecks(server, t0);
  }
}

/**
 * A healthy first start (fresh state: the dashboard, every migration, wrangler dev) prints at most
 * 25 lines, says where it listens, shows no stack trace; after SIGTERM nothing serves the port.
 */
async function startupChecks(server, stoppedAt = Date.now()) {
  const t0 = Date.now();
  try {
    const lines = readFileSync(server.logFile, "utf8")
      .split("\n")
      .filter((l) => l.trim() !== "");
    const ready = lines.findIndex((l) => l.startsWith("Finance Journal is ready: "));
    assert.ok(ready >= 0, `no ready line in:\n${lines.join("\n")}`);
    assert.ok(lines.length <= 15, `npm start printed ${lines.length} lines (limit 15):\n${lines.join("\n")}`);
    assert.equal(lines.filter((l) => /^\s+at |ENOTFOUND/.test(l)).length, 0, "a stack trace was printed");
    assert.equal(lines.filter((l) => /migration/i.test(l)).length, 1, "migrations reported once");
    const port = Number(new URL(server.base).port);
    let open = true;
    for (let i = 0; i < 20 && open; i++) {
      open = await fetch(`${server.base}/api/v1/health`).then(
        () => true,
        () => false,
      );
      if (open) await new Promise((r) => setTimeout(r, 250));
    }
    assert.equal(open, false, `port ${port} still served after SIGTERM to npm start`);
    assert.ok(Date.now() - stoppedAt < 5000, `the port was freed ${Date.now() - stoppedAt} ms after SIGTERM`);
    // Whatever npm start spawned is gone with it (wrangler, workerd): nothing left in its group.
    let left = true;
    try {
      process.kill(-server.child.pid, 0);
    } catch {
      left = false;
    }
    assert.equal(left, false, "processes of npm start's group outlived its SIGTERM");
    passed++;
    log(`  ✔ start-up: ${lines.length} lines, stops on SIGTERM (${Date.now() - t0} ms)`);
  } catch (err) {
    failed++;
    log(`  ✖ start-up (${Date.now() - t0} ms)`);
    log(String(err?.stack ?? err).replace(/^/gm, "      "));
  }
}

/** Start-up and adding the demo household (~700 emails through the pipeline) print at most 15 lines. */
function quietAfterDemo(server) {
  const lines = readFileSync(server.logFile, "utf8")
    .split("\n")
    .filter((l) => l.trim() !== "");
  try {
    assert.ok(
      lines.length <= 15,
      `start-up and the demo printed ${lines.length} lines:\n${lines.slice(0, 30).join("\n")}`,
    );
    passed++;
    log(`  ✔ start-up and demo data: ${lines.length} lines in the terminal`);
  } catch (err) {
    failed++;
    log(`  ✖ start-up and demo data\n${String(err?.message ?? err).replace(/^/gm, "      ")}`);
  }
}

main();
