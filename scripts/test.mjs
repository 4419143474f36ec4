// npm test: everything the suite needs is set up here, then vitest runs inside workerd with coverage.
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { ensureDashboardDist, root } from "./lib/dashboard.mjs";

ensureDashboardDist();
const vitest = join(root, "node_modules", ".bin", "vitest");
const res = spawnSync(vitest, ["run", "--coverage", ...process.argv.slice(2)], {
  cwd: root,
  stdio: "inherit",
});
process.exit(res.status ?? 1);
