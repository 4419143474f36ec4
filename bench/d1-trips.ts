/**
 * D1 round trips per write request (a batch counts as one), through the app with a counting D1
 * binding (bench/lib/d1-count.ts). Each write also reports whether its ledger entry was written in
 * the change's own batch. Target (issue 24): every write ≤ 3.
 *   npm run bench:trips            (VERBOSE=1 prints each round trip's SQL)
 */
import { env } from "cloudflare:test";
import { expect, it } from "vitest";
import type { Env } from "../src/env";
import { resetState } from "../test/helpers/auth";
import { call } from "../test/helpers/http";
import { seedTx } from "../test/helpers/seed";
import { countD1 } from "./lib/d1-count";

const NOW = "2024-03-15T20:00:00Z";
const budget = (t: number | null) => ({
  spending_ceiling: 48000,
  categories: { Groceries: { target: 7200, input_mode: "monthly", category_type: "variable" } },
  groups: [{ name: "Essentials", categories: ["groceries"] }],
  targets_version: t,
  groups_version: t,
});

it("counts D1 round trips of the main write routes", async () => {
  await resetState();
  const txId = await seedTx({ DateFileName: "2024-03-10T12:00:00Z", Company: "FRESH MART", Category: null });
  const counter = countD1(env.DB);
  const writes: [string, string, string, unknown][] = [
    ["PATCH a transaction (category)", "PATCH", `/api/v1/transactions/${txId}`, { category: "groceries" }],
    ["PUT a comment", "PUT", `/api/v1/transactions/${txId}/comment`, { comment: "weekly shop" }],
    ["PUT an override (create)", "PUT", "/api/v1/overrides/FRESH%20MART", { category: "groceries" }],
    ["PUT an override (update)", "PUT", "/api/v1/overrides/FRESH%20MART", { category: "Coffee & Cafes" }],
    ["DELETE an override", "DELETE", "/api/v1/overrides/FRESH%20MART", undefined],
    ["POST an ignore rule (create)", "POST", "/api/v1/ignore-rules", { pattern: "PAYMENT THANK YOU" }],
    ["PUT the budget config (create)", "PUT", "/api/v1/budget/config?year=2024", budget(null)],
    ["PUT the budget config (update)", "PUT", "/api/v1/budget/config?year=2024", budget(1)],
    ["PUT the app config", "PUT", "/api/v1/config", { insights_user_memo: "bench" }],
  ];
  const rows: string[] = [];
  for (const [name, method, path, body] of writes) {
    counter.reset();
    const res = await call(path, { method, body, now: NOW, env: { DB: counter.db } as Partial<Env> });
    expect(res.status, `${name}: ${res.text}`).toBeLessThan(300);
    const inBatch = counter.log.some((l) => l.startsWith("batch") && l.includes("activity_log"));
    rows.push(`${String(counter.trips).padStart(3)}  ${inBatch ? "in batch " : "separate "} ${name}`);
    if ((env as { BENCH_VERBOSE?: string }).BENCH_VERBOSE) for (const l of counter.log) rows.push(`       ${l}`);
  }
  console.log(`\nD1 round trips per write (ledger entry in the change's batch or separate)\n${rows.join("\n")}`);
});
