// npm start [-- wrangler dev flags]: builds the dashboard (or its placeholder), applies the D1
// migrations to the same local state wrangler dev will use, then serves on :8787 and fires the
// Cron Triggers locally (wrangler dev does not).
import { spawn } from "node:child_process";
import { ensureDashboardDist, root } from "./lib/dashboard.mjs";
import { devOrigin, startLocalCron } from "./lib/local-cron.mjs";
import { applyMigrations, stateArgs, wranglerBin } from "./lib/wrangler.mjs";

const argv = process.argv.slice(2);
const { persistTo } = stateArgs(argv);

// Bound beyond loopback (`--ip 0.0.0.0`, a LAN address): anyone who can reach the port must not
// get the loopback-only trust (no password yet = open; the dev bypass), whatever Host they send.
const ipArg = argv.find((a, i) => a.startsWith("--ip=") || argv[i - 1] === "--ip");
const ip = ipArg?.replace(/^--ip=/, "");
const loopback = (h) => h === "localhost" || h === "::1" || /^127(\.\d{1,3}){3}$/.test(h);
if (ip && !loopback(ip)) {
  argv.push("--var", "PUBLIC_BIND:true");
  const line = "!".repeat(78);
  console.warn(
    `\n${line}\n  WARNING: serving on ${ip}, beyond this machine. Nothing is treated as local: without a\n` +
      "  password the journal asks for a setup token (npm run token -- issue --label setup), and the\n" +
      `  dev bypass is off. Set a password before anyone else can reach this port.\n${line}\n`,
  );
}

ensureDashboardDist();
applyMigrations({ persistTo, remote: false });

const child = spawn(wranglerBin, ["dev", ...argv], {
  cwd: root,
  stdio: "inherit",
  env: { ...process.env, WRANGLER_SEND_METRICS: "false" },
});
const stopCron = startLocalCron(devOrigin(argv));
for (const sig of ["SIGINT", "SIGTERM"]) process.on(sig, () => child.kill(sig));
child.on("exit", (code) => {
  stopCron();
  process.exit(code ?? 0);
});
