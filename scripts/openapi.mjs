// npm run openapi: serves the Worker with wrangler dev on a free port, fetches /openapi.json and
// writes it to ./openapi.json (the committed schema is the consumers' change log; a test fails on drift).
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ensureDashboardDist, root } from "./lib/dashboard.mjs";
import { freePort } from "./lib/net.mjs";
import { wranglerBin } from "./lib/wrangler.mjs";

ensureDashboardDist();
const port = await freePort();
const state = mkdtempSync(join(tmpdir(), "fj-openapi-"));
const child = spawn(
  wranglerBin,
  ["dev", "--port", String(port), "--ip", "127.0.0.1", "--persist-to", state],
  {
    cwd: root,
    stdio: ["ignore", "ignore", "inherit"],
    env: { ...process.env, WRANGLER_SEND_METRICS: "false" },
    detached: true,
  },
);
let doc = null;
try {
  for (let i = 0; i < 120 && !doc; i++) {
    await new Promise((r) => setTimeout(r, 500));
    try {
      const res = await fetch(`http://127.0.0.1:${port}/openapi.json`);
      if (res.ok) doc = await res.json();
    } catch {
      /* not up yet */
    }
  }
} finally {
  try {
    process.kill(-child.pid, "SIGTERM");
  } catch {}
  rmSync(state, { recursive: true, force: true });
}
if (!doc) {
  console.error("could not fetch /openapi.json from wrangler dev");
  process.exit(1);
}
writeFileSync(join(root, "openapi.json"), `${JSON.stringify(doc, null, 2)}\n`);
console.log(`openapi.json written: ${Object.keys(doc.paths).length} paths`);
