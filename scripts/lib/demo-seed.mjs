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
    return await seedThrough(base, { today, seed, log });
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
 * through its pipeline, then waits while its queued steps run (GET /setup/demo-data counts the
 * alerts sent; `log` gets each new count); resolves with what the seed wrote and the time it took.
 */
export async function seedThrough(base, { today = null, seed = null, log = () => {} } = {}) {
  const q = new URLSearchParams();
  if (today) q.set("today", today);
  if (seed !== null) q.set("seed", String(seed));
  const t0 = Date.now();
  const res = await fetch(`${base}/api/v1/setup/demo-data?${q}`, { method: "POST" });
  let body = await res.json().catch(() => null);
  if (res.status !== 202) throw new Error(`demo data: ${res.status} ${JSON.stringify(body)}`);
  let said = -1;
  // No step for 15 minutes fails the run (the status read says so); this wait is a little longer.
  while (body?.status === "running" && Date.now() - t0 < 20 * 60_000) {
    if (body.emails_done !== said) {
      said = body.emails_done;
      log(`  alerts ${said} of ${body.emails_total}`);
    }
    await new Promise((r) => setTimeout(r, 500));
    body = await (await fetch(`${base}/api/v1/setup/demo-data`)).json().catch(() => body);
  }
  if (body?.status !== "done" || !body.result) throw new Error(`demo data: ${JSON.stringify(body)}`);
  return { ...body.result, ms: Date.now() - t0 };
}
