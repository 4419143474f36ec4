// bench/queries: API latency over 100,000 transactions (10 years, seed 42) under wrangler dev with
// local D1, next to the same aggregate run directly in SQLite (node:sqlite) as the floor.
// Prints p50/p99 per route and the query plans of the month queries.
import { execFileSync, spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { wranglerBin } from "../scripts/lib/wrangler.mjs";
import { writeLargeSeed } from "./lib/seed-large.mjs";
import { fmt, percentiles, startServer } from "./lib/server.mjs";

const N = Number(process.env.BENCH_N ?? 100);
let seeded = 0;
const server = await startServer({
  prepare: (state) => {
    const file = join(state, "large.sql");
    seeded = writeLargeSeed(file);
    const t0 = performance.now();
    const r = spawnSync(
      wranglerBin,
      ["d1", "execute", "DB", "--local", "--persist-to", state, "--file", file],
      { stdio: "ignore" },
    );
    if (r.status !== 0) throw new Error("seeding failed");
    console.log(`seeded ${seeded} rows in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  },
});

async function time(name, path, opts = {}) {
  const samples = [];
  const probe = await fetch(server.base + path, opts);
  await probe.arrayBuffer();
  if (probe.status === 404) return console.log(`${name.padEnd(34)} (route not available)`);
  for (let i = 0; i < 5; i++) await (await fetch(server.base + path, opts)).arrayBuffer();
  for (let i = 0; i < N; i++) {
    const t0 = performance.now();
    const res = await fetch(server.base + path, opts);
    await res.arrayBuffer();
    samples.push(performance.now() - t0);
    if (!res.ok) throw new Error(`${name}: ${res.status}`);
  }
  const p = percentiles(samples);
  console.log(`${name.padEnd(34)} p50=${fmt(p.p50).padStart(10)} p99=${fmt(p.p99).padStart(10)}`);
}

try {
  const budgetBody = JSON.stringify({
    spending_ceiling: 50000,
    categories: {},
    groups: [],
    targets_version: null,
    groups_version: null,
  });
  await fetch(`${server.base}/api/v1/budget/config?year=2025`, {
    method: "PUT",
    body: budgetBody,
    headers: { "content-type": "application/json" },
  });
  await time("list month (2025-06)", "/api/v1/transactions?month=2025-06");
  await time(
    "search 12 months, company",
    "/api/v1/transactions/search?from=2025-01&to=2025-12&company=merchant%2012",
  );
  await time(
    "search 24 months, category",
    "/api/v1/transactions/search?from=2024-01&to=2025-12&category=groceries",
  );
  await time("export CSV 12 months (~10k rows)", "/api/v1/transactions/export?from=2025-01&to=2025-12");
  await time("summary (2025-06)", "/api/v1/summary?month=2025-06");
  await time("journal (2025-06)", "/api/v1/journal?month=2025-06");
  await time("budget status (2025)", "/api/v1/budget/status?year=2025");
  await time("merchant intelligence (6 months)", "/api/v1/merchants/intelligence?month=2025-06&months=6");

  // The floor: the same month aggregate straight on the SQLite file behind local D1.
  const dir = join(server.state, "v3", "d1", "miniflare-D1DatabaseObject");
  const dbFile = readdirSync(dir).find((f) => f.endsWith(".sqlite") && f !== "metadata.sqlite");
  const script = `
    const { DatabaseSync } = require("node:sqlite");
    const db = new DatabaseSync(${JSON.stringify(join(dir, dbFile))}, { readOnly: true });
    const q = (sql) => db.prepare(sql);
    const month = q("SELECT lower(Category) c, SUM(Amount) s, COUNT(*) n FROM transactions WHERE DateFileName >= '2025.06.' AND DateFileName < '2025.06/' AND DeletedAt IS NULL AND Ignored = 0 AND TransactionType IN ('purchase','withdrawal','preauth') GROUP BY 1");
    const list = q("SELECT * FROM transactions WHERE DateFileName >= '2025.06.' AND DateFileName < '2025.06/' AND DeletedAt IS NULL ORDER BY DateFileName DESC");
    const search = q("SELECT COUNT(*), SUM(Amount) FROM transactions WHERE DateFileName >= '2025.01.' AND DateFileName < '2025.12/' AND Company LIKE '%merchant 12%' AND Ignored = 0 AND DeletedAt IS NULL");
    const t = (name, st) => { const s = []; for (let i = 0; i < 200; i++) { const t0 = performance.now(); st.all(); s.push(performance.now() - t0); } s.sort((a,b)=>a-b); console.log(("sqlite floor: " + name).padEnd(34) + " p50=" + s[100].toFixed(2).padStart(7) + " ms p99=" + s[198].toFixed(2).padStart(7) + " ms"); };
    t("month aggregate", month); t("list month", list); t("search 12 months", search);
    for (const [n, sql] of [["month range", "SELECT * FROM transactions WHERE DateFileName >= '2025.06.' AND DateFileName < '2025.06/'"], ["summary group", "SELECT lower(Category), SUM(Amount) FROM transactions WHERE DateFileName >= '2025.06.' AND DateFileName < '2025.06/' GROUP BY 1"]])
      console.log("plan " + n + ": " + q("EXPLAIN QUERY PLAN " + sql).all().map((r) => r.detail).join("; "));
  `;
  console.log(
    execFileSync(process.execPath, ["-e", script], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
    }).trim(),
  );
} finally {
  server.stop();
}
