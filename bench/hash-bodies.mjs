// Prints a SHA-256 of each read route's response body (and its size) over the 100,000-row seed, to show that a
// performance change leaves responses byte-identical: run it before and after, and diff the output.
import { createHash } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { startSeeded } from "./lib/seeded.mjs";

const PATHS = [
  "/api/v1/transactions/search?from=2025-01&to=2025-12&company=merchant%2012",
  "/api/v1/transactions/search?from=2024-01&to=2025-12&category=groceries",
  "/api/v1/transactions/search?from=2024-01&to=2025-12&q=cafe&include_ignored=true",
  "/api/v1/transactions/search?from=2025-03&to=2025-04&min_amount=10&max_amount=50",
  "/api/v1/transactions/export?from=2025-01&to=2025-12",
  "/api/v1/transactions/export?from=2024-06&to=2025-05&company=market",
  "/api/v1/income-statement?year=2025",
  "/api/v1/income-statement?year=2024",
  "/api/v1/summary?month=2025-06",
  "/api/v1/journal?month=2025-06",
  "/api/v1/budget/status?year=2025",
  "/api/v1/budget/status?year=2026",
  "/api/v1/merchants/intelligence?month=2025-06&months=6",
  "/api/v1/merchants/intelligence?month=2024-12&months=12",
  "/api/v1/coverage",
  "/api/v1/config",
];

// HASH_DUMP=dir also writes each body there (to diff two runs).
const dump = process.env.HASH_DUMP;
if (dump) mkdirSync(dump, { recursive: true });
const server = await startSeeded();
try {
  await fetch(`${server.base}/api/v1/budget/config?year=2025`, {
    method: "PUT",
    body: JSON.stringify({
      spending_ceiling: 50000,
      categories: {
        groceries: { target: 6000, category_type: "variable" },
        utilities: { target: 2000, category_type: "fixed" },
      },
      groups: [],
      targets_version: null,
      groups_version: null,
    }),
    headers: { "content-type": "application/json" },
  });
  for (const p of PATHS) {
    const res = await fetch(server.base + p);
    const body = Buffer.from(await res.arrayBuffer());
    const h = createHash("sha256").update(body).digest("hex").slice(0, 16);
    if (dump) writeFileSync(join(dump, p.replace(/[^a-z0-9]+/gi, "_")), body);
    console.log(`${res.status} ${String(body.length).padStart(9)} ${h} ${p}`);
  }
} finally {
  server.stop();
}
