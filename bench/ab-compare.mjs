// A/B latency of two checkouts on one machine: `node bench/ab-compare.mjs /path/to/other/checkout`.
// Both Workers run at once under wrangler dev over copies of ONE 100,000-row seed, and each sample
// asks A then B (order alternating), so a busy machine's load falls on both alike. Prints p50 per
// route for A (the other checkout: "before") and B (this one: "after"). BENCH_N samples per route.
import { spawn } from "node:child_process";
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { root } from "../scripts/lib/dashboard.mjs";
import { wranglerBin } from "../scripts/lib/wrangler.mjs";
import { get, percentiles } from "./lib/server.mjs";
import { startSeeded } from "./lib/seeded.mjs";
import { freePort } from "../scripts/lib/net.mjs";
import { ROUTES } from "./lib/routes.mjs";

const other = resolve(process.argv[2] ?? "");
const N = Number(process.env.BENCH_N ?? 30);
const seeded = await startSeeded();
await seeded.stopServerOnly();
await new Promise((r) => setTimeout(r, 1000));
const stateA = mkdtempSync(join(tmpdir(), "fj-ab-"));
cpSync(seeded.state, stateA, { recursive: true });

async function serve(cwd, state) {
  const port = await freePort();
  const child = spawn(
    wranglerBin,
    ["dev", "--port", String(port), "--ip", "127.0.0.1", "--persist-to", state, "--log-level", "warn"],
    {
      cwd,
      stdio: ["ignore", "ignore", "inherit"],
      detached: true,
      env: { ...process.env, WRANGLER_SEND_METRICS: "false" },
    },
  );
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 240; i++) {
    try {
      if ((await fetch(`${base}/api/v1/health`)).ok) break;
    } catch {}
    await new Promise((r) => setTimeout(r, 250));
  }
  return {
    base,
    stop: () => {
      try {
        process.kill(-child.pid, "SIGTERM");
      } catch {}
    },
  };
}

// One after the other: two free-port probes at once can pick the same port.
const A = await serve(other, stateA);
const B = await serve(root, seeded.state);
const timed = async (base, path) => {
  const t0 = performance.now();
  const res = await get(base + path);
  if (res.status !== 200) throw new Error(`${base}${path}: ${res.status}`);
  return performance.now() - t0;
};
try {
  const budget = JSON.stringify({
    spending_ceiling: 50000,
    categories: {},
    groups: [],
    targets_version: null,
    groups_version: null,
  });
  for (const s of [A, B])
    await fetch(`${s.base}/api/v1/budget/config?year=2025`, {
      method: "PUT",
      body: budget,
      headers: { "content-type": "application/json" },
    });
  console.log(
    `N=${N} per route and side; load average at start ${loadavg()
      .map((x) => x.toFixed(2))
      .join(" ")}`,
  );
  console.log("route                          A p50    B p50   B/A");
  for (const [name, path] of ROUTES) {
    const at = (i) => (typeof path === "function" ? path(i) : path);
    for (let i = 0; i < 3; i++) await Promise.all([timed(A.base, at(-1 - i)), timed(B.base, at(-1 - i))]);
    const a = [];
    const b = [];
    for (let i = 0; i < N; i++) {
      if (i % 2) {
        b.push(await timed(B.base, at(i)));
        a.push(await timed(A.base, at(i)));
      } else {
        a.push(await timed(A.base, at(i)));
        b.push(await timed(B.base, at(i)));
      }
    }
    const pa = percentiles(a).p50;
    const pb = percentiles(b).p50;
    console.log(
      `${name.padEnd(30)} ${pa.toFixed(1).padStart(7)} ${pb.toFixed(1).padStart(8)} ${(pb / pa).toFixed(2).padStart(5)}`,
    );
  }
  console.log(
    `load average at end ${loadavg()
      .map((x) => x.toFixed(2))
      .join(" ")}`,
  );
} finally {
  A.stop();
  B.stop();
  seeded.stop();
  rmSync(stateA, { recursive: true, force: true });
}
