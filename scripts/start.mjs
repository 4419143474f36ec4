// npm start [-- wrangler dev flags]: builds the dashboard (or its placeholder), applies the D1
// migrations to the same local state wrangler dev will use, then serves on :8787 and fires the
// Cron Triggers locally (wrangler dev does not).
import { spawn } from "node:child_process";
import { ensureDashboardDist, root } from "./lib/dashboard.mjs";
import { devOrigin, startLocalCron } from "./lib/local-cron.mjs";
import { applyMigrations, stateArgs, wranglerBin } from "./lib/wrangler.mjs";

const argv = process.argv.slice(2);
const { persistTo } = stateArgs(argv);

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
