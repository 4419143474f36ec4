// bench/health: latency of GET /api/v1/health under wrangler dev (local D1) with the demo household
// (fixed seed 20261121, today 2026-11-21: ~700 transactions) plus 5,000 quarantined rows.
// Sequential requests after a warm-up; prints p50/p95/p99. SPEC: under 50 ms.
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { seedDemoState } from "../scripts/lib/demo-seed.mjs";
import { wranglerBin } from "../scripts/lib/wrangler.mjs";
import { fmt, percentiles, startServer } from "./lib/server.mjs";

const N = Number(process.env.BENCH_N ?? 2000);
const server = await startServer({
  vars: { IMAP_HOST: "127.0.0.1" },
  prepare: async (state) => {
    // The demo household through the Worker's own pipeline, then the quarantine backlog as SQL.
    await seedDemoState({ persistTo: state, today: "2026-11-21", seed: 20261121 });
    const failures = [];
    for (let i = 0; i < 5000; i++) {
      const day = new Date(Date.UTC(2026, 10, 21) - (i % 30) * 86400000).toISOString();
      failures.push(`('pf_bench_${i}', 'quarantined', 'no_parser_match', '${day}', '${day}')`);
    }
    const extra = `INSERT INTO parse_failures (id, status, failure_stage, created_at, updated_at) VALUES ${failures.join(",")};
INSERT INTO poller_state (id, last_poll_at) VALUES ('imap', '2026-11-21T19:59:00Z');`;
    const file = join(state, "bench.sql");
    writeFileSync(file, extra);
    spawnSync(wranglerBin, ["d1", "execute", "DB", "--local", "--persist-to", state, "--file", file], {
      stdio: "ignore",
    });
  },
});
try {
  for (let i = 0; i < 100; i++) await (await fetch(`${server.base}/api/v1/health`)).text();
  const samples = [];
  for (let i = 0; i < N; i++) {
    const t0 = performance.now();
    const res = await fetch(`${server.base}/api/v1/health`);
    await res.text();
    samples.push(performance.now() - t0);
    if (res.status !== 200) throw new Error(`health answered ${res.status}`);
  }
  const p = percentiles(samples);
  console.log(
    `health: n=${p.n} p50=${fmt(p.p50)} p95=${fmt(p.p95)} p99=${fmt(p.p99)} max=${fmt(p.max)} (SPEC: < 50 ms)`,
  );
} finally {
  server.stop();
}
