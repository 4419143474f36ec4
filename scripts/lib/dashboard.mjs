// Wrangler refuses to start without the assets folder: until the dashboard is built,
// serve the placeholder page from dashboard/placeholder.
import { cpSync, existsSync, mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");

export function ensureDashboardDist() {
  const dist = join(root, "dashboard", "dist");
  if (existsSync(join(dist, "index.html"))) return dist;
  mkdirSync(dist, { recursive: true });
  cpSync(join(root, "dashboard", "placeholder"), dist, { recursive: true });
  return dist;
}
