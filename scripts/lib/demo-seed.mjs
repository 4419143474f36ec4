// The demo household through the real doors: starts the Worker (wrangler dev) on the given state
// and asks it, over loopback, to send the generated alerts and statement through its pipeline
// (POST /api/v1/setup/demo-data). Nothing writes rows from here.
import { spawn } from "node:child_process";
import { ensureDashboardDist, root } from "./dashboard.mjs";
import { freePort } from "./net.mjs";
import { applyMigrations, wranglerBin } from "./wrangler.mjs";

/** Seeds `persistTo` (null: wrangler's default state) and resolves with the route's answer. */
export async function seedDemoState({ persistTo = null, today = null, seed = null, log = () => {} } = {}) {
  ensureDashboardDist({ quiet: true });
  applyMigrations({ persistTo });
  const port = await freePort();
  const child = spawn(
    wranglerBin,
    [
      "dev",
      "--port",
      String(port),
      "--ip",
      "127.0.0.1",
      ...(persistTo ? ["--persist-to", persistTo] : []),
      "--log-level",
      "warn",
      // The demo asks no model and polls no mailbox, whatever .dev.vars says.
      "--var",
      "MODEL_API_KEY:",
      "--var",
      "IMAP_HOST:",
    ],
    {
      cwd: root,
      stdio: ["ignore", "ignore", "inherit"],
      detached: true,
      env: { ...process.env, WRANGLER_SEND_METRICS: "false" },
    },
  );
  const base = `http://127.0.0.1:${port}`;
  try {
    let up = false;
    for (let i = 0; i < 360 && !up; i++) {
      try {
        up = (await fetch(`${base}/api/v1/health`)).ok;
      } catch {}
      if (!up) await new Promise((r) => setTimeout(r, 250));
    }
    if (!up) throw new Error("the Worker did not start under wrangler dev");
    log(`sending the demo household's alerts and statement through ${base}`);
    return await seedThrough(base, { today, seed });
  } finally {
    try {
      process.kill(-child.pid, "SIGTERM");
    } catch {}
    await new Promise((r) => {
      if (child.exitCode !== null) r();
      else child.once("exit", r).once("error", r);
    });
  }
}

/**
 * Asks the Worker already serving `base` (loopback, an empty journal) to seed the demo household
 * through its pipeline; resolves with the route's answer and the time it took.
 */
export async function seedThrough(base, { today = null, seed = null } = {}) {
  const q = new URLSearchParams();
  if (today) q.set("today", today);
  if (seed !== null) q.set("seed", String(seed));
  const t0 = Date.now();
  const res = await fetch(`${base}/api/v1/setup/demo-data?${q}`, { method: "POST" });
  const body = await res.json().catch(() => null);
  if (res.status !== 201) throw new Error(`demo data: ${res.status} ${JSON.stringify(body)}`);
  return { ...body, ms: Date.now() - t0 };
}
