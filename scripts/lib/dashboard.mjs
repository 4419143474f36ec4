// Wrangler refuses to start without the assets folder. ensureDashboardDist() builds the dashboard
// (vite build) when dashboard/dist is missing or older than its sources, and falls back to the
// placeholder page only when the build fails. Whichever it serves, the folder also gets the /docs and
// /redoc viewers (docs-assets.mjs), so the API reference works offline even without a dashboard.
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { copyDocsAssets } from "./docs-assets.mjs";

export const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");

const dashboard = join(root, "dashboard");
const SOURCES = ["src", "public", "index.html", "vite.config.ts"];
const PLACEHOLDER_MARK = ".placeholder";

/** Newest modification time (ms) under the given path. */
function newest(path) {
  if (!existsSync(path)) return 0;
  const st = statSync(path);
  if (!st.isDirectory()) return st.mtimeMs;
  let max = st.mtimeMs;
  for (const entry of readdirSync(path)) max = Math.max(max, newest(join(path, entry)));
  return max;
}

/** True when dist is missing, is the placeholder, or is older than any dashboard source. */
export function dashboardStale() {
  const index = join(dashboard, "dist", "index.html");
  if (!existsSync(index) || existsSync(join(dashboard, "dist", PLACEHOLDER_MARK))) return true;
  const built = statSync(index).mtimeMs;
  return SOURCES.some((s) => newest(join(dashboard, s)) > built);
}

/** Runs `vite build` for the dashboard; returns true on success. */
export function buildDashboard({ quiet = false } = {}) {
  const vite = join(root, "node_modules", "vite", "bin", "vite.js");
  if (!existsSync(vite)) return false;
  const res = spawnSync(process.execPath, [vite, "build", "--config", join(dashboard, "vite.config.ts")], {
    cwd: root,
    stdio: quiet ? "pipe" : "inherit",
    encoding: "utf8",
  });
  if (res.status !== 0 && quiet) process.stderr.write(`${res.stdout ?? ""}${res.stderr ?? ""}`);
  return res.status === 0;
}

/** Copies the docs viewers into dist; a missing package only costs /docs its real viewer. */
export function ensureDocsAssets(dist) {
  try {
    copyDocsAssets(dist);
  } catch (err) {
    console.error(`docs viewers not copied (/docs and /redoc fall back to the plain reader): ${err.message}`);
  }
  return dist;
}

export function ensureDashboardDist({ quiet = false } = {}) {
  const dist = join(dashboard, "dist");
  // A build made before the viewers were part of it is otherwise current: top it up.
  if (!dashboardStale()) return ensureDocsAssets(dist);
  if (buildDashboard({ quiet })) return ensureDocsAssets(dist);
  const bar = "=".repeat(78);
  console.error(
    `\n${bar}\n  DASHBOARD BUILD FAILED: serving ${existsSync(join(dist, "index.html")) && !existsSync(join(dist, PLACEHOLDER_MARK)) ? "the previous build" : "the placeholder page"} instead.\n  Run \`npm run dashboard:build\` to see why.\n${bar}\n`,
  );
  if (existsSync(join(dist, "index.html")) && !existsSync(join(dist, PLACEHOLDER_MARK)))
    return ensureDocsAssets(dist);
  rmSync(dist, { recursive: true, force: true });
  mkdirSync(dist, { recursive: true });
  cpSync(join(dashboard, "placeholder"), dist, { recursive: true });
  writeFileSync(
    join(dist, PLACEHOLDER_MARK),
    "dist holds the placeholder: the next start retries the build\n",
  );
  return ensureDocsAssets(dist);
}

/**
 * What the Worker tests need: an assets folder for wrangler, not a fresh build (no test reads the
 * dashboard). Places the placeholder only when there is no dist at all; `npm start` and the browser
 * tests still build a missing or stale dashboard.
 */
export function ensureAssetsFolder() {
  const dist = join(dashboard, "dist");
  if (existsSync(join(dist, "index.html"))) return ensureDocsAssets(dist);
  mkdirSync(dist, { recursive: true });
  cpSync(join(dashboard, "placeholder"), dist, { recursive: true });
  writeFileSync(
    join(dist, PLACEHOLDER_MARK),
    "dist holds the placeholder: the next start retries the build\n",
  );
  return ensureDocsAssets(dist);
}
