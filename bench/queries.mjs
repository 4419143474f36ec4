// bench/queries: API latency over 100,000 transactions (10 years, seed 42) under wrangler dev with
// local D1, next to the route's SQL run straight on the SQLite file (node:sqlite) as its floor.
// Issue 16's target per read route: p50 under 35 ms and within 2x of (health p50 + floor p50).
// BENCH_N=30 keeps a run short on a loaded machine; BENCH_ONLY=merchants,journal times only those
// routes; compare before/after back to back. The last
// column is the workerd processes' CPU time per request (bench/lib/cpu-probe.mjs): load inflates it
// far less than wall time. Issue 36: everyday use (journal, search, summary, budget, an alert email,
// a hand edit) is held to the Workers Free plan's 10 ms of CPU a request: the "free 10 ms" column.
// Locally that CPU includes local D1's own SQLite work (deployed, D1 runs it outside the Worker):
// an upper bound of what the Worker itself spends.
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";
import { workerdCpuMs } from "./lib/cpu-probe.mjs";
import { FLOORS } from "./lib/floors.mjs";
import { ROUTES } from "./lib/routes.mjs";
import { get, percentiles, send } from "./lib/server.mjs";
import { startSeeded } from "./lib/seeded.mjs";

const N = Number(process.env.BENCH_N ?? 100);
const server = await startSeeded();

/**
 * p50/p99 of a route; `path` may be a function of the sample index (a cache-missing route), or a
 * write: { path, request(i) → { method, headers, body } } (each sample its own request).
 */
async function time(spec) {
  const write = typeof spec === "object";
  const path = write ? spec.path : spec;
  const at = (i) => server.base + (typeof path === "function" ? path(i) : path);
  const go = (i) => (write ? send(at(i), spec.request(i)) : get(at(i)));
  const probe = await go(-1);
  if (probe.status === 404) return null;
  for (let i = 0; i < 5; i++) await go(-2 - i);
  const samples = [];
  const cpu0 = workerdCpuMs();
  for (let i = 0; i < N; i++) {
    const t0 = performance.now();
    const res = await go(i);
    samples.push(performance.now() - t0);
    if (res.status < 200 || res.status > 299)
      throw new Error(
        `${typeof path === "string" ? path : write ? spec.path : "route"}: ${res.status} ${res.head.slice(0, 300)}`,
      );
  }
  const cpu1 = workerdCpuMs();
  // CPU time of the workerd processes per request: what a loaded machine does not inflate.
  const cpu = cpu0 === null || cpu1 === null ? null : (cpu1 - cpu0) / N;
  return { ...percentiles(samples), cpu };
}

/** The writes of everyday use: an alert email through the upload door, a hand edit of a category. */
async function writes() {
  const fixture = readFileSync(
    join(import.meta.dirname, "..", "test", "fixtures", "emails", "forwarded-gmail-rbc.eml"),
    "latin1",
  );
  const email = (i) => {
    const raw = fixture.replace(
      /^Message-ID: <[^>]*>/im,
      `Message-ID: <bench-${i}-${Date.now()}@bench.example>`,
    );
    const boundary = "benchboundary";
    const body = Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="alert.eml"\r\nContent-Type: message/rfc822\r\n\r\n`,
      ),
      Buffer.from(raw, "latin1"),
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    return { method: "POST", headers: { "content-type": `multipart/form-data; boundary=${boundary}` }, body };
  };
  const listed = await fetch(`${server.base}/api/v1/transactions?month=2025-06`).then((r) => r.json());
  const ids = (listed.transactions ?? listed.items ?? []).map((t) => t.tx_id).filter(Boolean);
  // Three categories the journal knows (a hand edit to an unknown one is a 422).
  const known = await fetch(`${server.base}/api/v1/categories`).then((r) => r.json());
  const cats = (known.categories ?? known.items ?? known).map((c) => c.name ?? c).slice(0, 3);
  const out = [["alert email (upload-eml)", { path: "/api/v1/transactions/upload-eml", request: email }]];
  if (ids.length)
    out.push([
      "hand edit (category)",
      {
        path: (i) =>
          `/api/v1/transactions/${encodeURIComponent(ids[((i % ids.length) + ids.length) % ids.length])}`,
        request: (i) => ({
          method: "PATCH",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ category: cats[((i % 3) + 3) % 3] }),
        }),
      },
    ]);
  return out;
}

/** Everyday use that should fit the Free plan's 10 ms of CPU (issue 36 point 4). */
const EVERYDAY = /^(journal|search|summary|budget|alert email|hand edit|list month)/;

/** Each floor's p50 straight on the SQLite file behind local D1 (a child process: node:sqlite). */
function floors() {
  const dir = join(server.state, "v3", "d1", "miniflare-D1DatabaseObject");
  const dbFile = readdirSync(dir).find((f) => f.endsWith(".sqlite") && f !== "metadata.sqlite");
  const script = `
    const { DatabaseSync } = require("node:sqlite");
    const db = new DatabaseSync(${JSON.stringify(join(dir, dbFile))}, { readOnly: true });
    const floors = ${JSON.stringify(FLOORS)};
    const out = {};
    for (const [name, sqls] of Object.entries(floors)) {
      const sts = sqls.map((s) => db.prepare(s));
      const s = [];
      for (let i = 0; i < 60; i++) { const t0 = performance.now(); for (const st of sts) st.all(); s.push(performance.now() - t0); }
      s.sort((a, b) => a - b);
      out[name] = s[30];
    }
    console.log(JSON.stringify(out));
  `;
  return JSON.parse(
    execFileSync(process.execPath, ["-e", script], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "inherit"],
    }),
  );
}

try {
  await fetch(`${server.base}/api/v1/budget/config?year=2025`, {
    method: "PUT",
    body: JSON.stringify({
      spending_ceiling: 50000,
      categories: {},
      groups: [],
      targets_version: null,
      groups_version: null,
    }),
    headers: { "content-type": "application/json" },
  });
  const results = [];
  // BENCH_ONLY=merchants,summary: only the routes whose name contains one of the words (health always).
  const only = process.env.BENCH_ONLY?.split(",")
    .map((w) => w.trim())
    .filter(Boolean);
  for (const [name, path] of [...ROUTES, ...(await writes())])
    if (name === "health" || !only || only.some((w) => name.includes(w)))
      results.push([name, await time(path)]);
  const floor = floors();
  const health = results[0][1].p50;
  const la = loadavg()
    .map((x) => x.toFixed(2))
    .join(" ");
  console.log(`N=${N} per route; load average ${la}; node ${process.version}`);
  console.log(
    "cpu ms/req: workerd's CPU per request, local D1's SQLite work included (an upper bound of the Worker's own)",
  );
  console.log(
    "worker ms: an estimate of the Worker's own CPU: cpu ms/req less health's (the local server's fixed cost of a\n" +
      "request: miniflare's entry worker, the HTTP parse, one small D1 query) and less the floor (the SQL's own time,\n" +
      "which D1 spends outside the Worker when deployed); the Free plan's 10 ms line is checked against it",
  );
  console.log(
    "route                          p50 ms   p99 ms  floor ms  target ms  verdict  cpu ms/req  worker ms  free 10 ms",
  );
  for (const [name, p] of results) {
    if (!p) {
      console.log(`${name.padEnd(30)} (route not available)`);
      continue;
    }
    const f = floor[name];
    const target = f === undefined ? 35 : Math.min(35, 2 * (health + f));
    const ok = name === "health" || p.p50 <= target;
    const cols = [p.p50, p.p99].map((x) => x.toFixed(1).padStart(8)).join(" ");
    const fl = (f === undefined ? "-" : f.toFixed(2)).padStart(9);
    const cpu = p.cpu === null ? "-" : p.cpu.toFixed(2);
    // Against the Free plan's 10 ms a request: everyday use must fit; the rest is shown for scale.
    const base = results[0][1].cpu;
    const own = p.cpu === null || base === null ? null : Math.max(0, p.cpu - base - (f ?? 0));
    const free = own === null ? "-" : EVERYDAY.test(name) ? (own <= 10 ? "ok" : "OVER") : "(n/a)";
    console.log(
      `${name.padEnd(30)} ${cols} ${fl} ${target.toFixed(1).padStart(10)}  ${(ok ? "ok" : "OVER").padEnd(7)} ${cpu.padStart(10)} ${(name === "health" ? "(base)" : own === null ? "-" : own.toFixed(1)).padStart(10)}  ${free.padStart(10)}`,
    );
  }
} finally {
  server.stop();
}
