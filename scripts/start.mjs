// npm start [-- wrangler dev flags]: builds the dashboard (or its placeholder), applies the D1
// migrations to the same local state wrangler dev will use, then serves on :8787 and fires the
// Cron Triggers locally (wrangler dev does not). It prints what a person needs (a healthy start is
// about a dozen lines; the Worker's structured log goes to a file under the state folder;
// FJ_VERBOSE=1 shows wrangler's own output and the log whole), and Ctrl-C or SIGTERM
// stops everything it started (wrangler and workerd run in their own process group).
import { spawn } from "node:child_process";
import { createWriteStream, mkdirSync } from "node:fs";
import { join } from "node:path";
import { ensureDashboardDist, root } from "./lib/dashboard.mjs";
import { devOutputFilter, pipeLines } from "./lib/dev-output.mjs";
import { devOrigin, startLocalCron } from "./lib/local-cron.mjs";
import { applyMigrations, stateArgs, wranglerBin } from "./lib/wrangler.mjs";

const argv = process.argv.slice(2);
const { persistTo } = stateArgs(argv);
const verbose = process.env.FJ_VERBOSE === "1";

// Bound beyond loopback (`--ip 0.0.0.0`, a LAN address): anyone who can reach the port must not
// get the loopback-only trust (no password yet = open; the dev bypass), whatever Host they send.
const ipArg = argv.find((a, i) => a.startsWith("--ip=") || argv[i - 1] === "--ip");
const ip = ipArg?.replace(/^--ip=/, "");
const loopback = (h) => h === "localhost" || h === "::1" || /^127(\.\d{1,3}){3}$/.test(h);
if (ip && !loopback(ip)) {
  argv.push("--var", "PUBLIC_BIND:true");
  console.warn(
    `WARNING: serving on ${ip}, beyond this machine. Nothing is treated as local: without a password the\n` +
      "journal asks for a setup token (npm run token -- issue --label setup), and the dev bypass is off.\n" +
      "Set a password before anyone else can reach this port.",
  );
}

const t0 = Date.now();
ensureDashboardDist({ quiet: !verbose });
console.log(`dashboard: ready (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
applyMigrations({ persistTo, remote: false }, { quiet: !verbose });

const origin = devOrigin(argv);
const devArgs = ["dev", "--show-interactive-dev-session=false", ...argv];
const child = spawn(wranglerBin, devArgs, {
  cwd: root,
  detached: true,
  stdio: ["ignore", "pipe", "pipe"],
  env: { ...process.env, WRANGLER_SEND_METRICS: "false", FORCE_COLOR: process.stdout.isTTY ? "1" : "0" },
});
let stopCron = () => {};
const onReady = () => {
  console.log(`Finance Journal is ready: ${origin}  (dashboard; API under /api/v1/, reference at /docs)`);
  console.log("  an API token for scripts and assistants: npm run token -- issue --label laptop");
  if (!verbose) console.log(`  the Worker's log: ${logPath} (FJ_VERBOSE=1 prints it here)`);
  stopCron = startLocalCron(origin, {
    log: (line) => console.log(`  ${line.replace(/^local cron: /, "cron: ")}`),
  });
  console.log("  Ctrl-C stops it.");
};
// The Worker's structured log lines (one per email, job, request error) go to a file, not the
// terminal: adding the demo household alone writes ~700 of them.
const logDir = join(persistTo ?? join(root, ".wrangler", "state"), "logs");
mkdirSync(logDir, { recursive: true });
const logPath = join(logDir, "worker.log");
const logFile = createWriteStream(logPath, { flags: "a" });
const logLine = (line) => logFile.write(`${line}\n`);
const filter = devOutputFilter({ verbose, onReady, logLine });
pipeLines(child.stdout, filter, (s) => process.stdout.write(s));
pipeLines(child.stderr, devOutputFilter({ verbose, logLine }), (s) => process.stderr.write(s));

// wrangler leaves workerd behind when only wrangler is signalled: signal the whole group.
let stopping = false;
const stopAll = (sig) => {
  if (stopping) return;
  stopping = true;
  stopCron();
  try {
    process.kill(-child.pid, sig);
  } catch {
    // already gone
  }
  setTimeout(() => {
    try {
      process.kill(-child.pid, "SIGKILL");
    } catch {
      // gone
    }
  }, 5000).unref();
};
for (const sig of ["SIGINT", "SIGTERM", "SIGHUP"])
  process.on(sig, () => stopAll(sig === "SIGHUP" ? "SIGTERM" : sig));
// Started by a launcher (npm, a shell) that is stopped without passing the signal on: when the
// parent goes, so does everything started here (`npm start` execs node, so npm's own SIGTERM
// reaches this process; this covers the rest).
const parent = process.ppid;
setInterval(() => {
  if (process.ppid !== parent) stopAll("SIGTERM");
}, 500).unref();
child.on("exit", (code, signal) => {
  stopCron();
  // Anything of the group still running (workerd) goes with it.
  try {
    process.kill(-child.pid, "SIGKILL");
  } catch {
    // gone
  }
  process.exit(stopping ? 0 : (code ?? (signal ? 1 : 0)));
});
