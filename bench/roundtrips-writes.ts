/**
 * D1 round trips per write request (a batch counts as one), through the app with a counting D1
 * binding (bench/lib/d1-count.ts), in a warm isolate (settings cached, as after its first request). Each write also reports whether its ledger entry was written in
 * the change's own batch. Target (issue 24): every write ≤ 3.
 *   npm run bench:roundtrips            (TRIPS=1 prints each round trip's SQL)
 */
import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { expect, it } from "vitest";
import { createApp } from "../src/app";
import type { Env } from "../src/env";
import { fixedClock } from "../src/lib/clock";
import { resetState } from "../test/helpers/auth";
import { seedTx } from "../test/helpers/seed";
import { quarantined } from "../test/helpers/learn";
import { venture } from "../test/fixtures/emails/unknown-banks/varying";
import { countingD1, describeTrips, tally } from "./lib/d1-count";

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
  await env.DB.prepare("DELETE FROM alert_templates").run();
  // Two wordings of one unknown bank: the first resolve learns a template, the second merges into it.
  const first = await quarantined(venture({ id: "b1", amount: "12.47", merchant: "TIM HORTONS" }));
  const second = await quarantined(
    venture({
      id: "b2",
      amount: "40.00",
      merchant: "SHELL OIL 5744",
      printed: "October 13, 2026",
      card: "Savor",
      digits: "9876",
      breakBefore: true,
    }),
  );
  const plain = await quarantined(venture({ id: "b0", amount: "8.10", merchant: "BLUE DOOR CAFE" }));
  const resolve = (id: string, date: string, amount: number, company: string, learn = true) =>
    [
      `/api/v1/parse-failures/${id}/resolve`,
      { date, amount, company, institution: "Capital Two", learn_template: learn },
    ] as const;
  const txId = await seedTx({ DateFileName: "2024-03-10T12:00:00Z", Company: "FRESH MART", Category: null });
  const counter = countingD1(env.DB);
  // One env object for every request, as in a deployed isolate (its settings cache is keyed by it).
  const benchEnv = { ...env, DB: counter.db } as Env;
  const app = createApp({ clock: fixedClock(NOW) });
  const call = async (path: string, method = "GET", body?: unknown) => {
    const ctx = createExecutionContext();
    const headers = body === undefined ? undefined : { "content-type": "application/json" };
    const req = new Request(`http://localhost${path}`, { method, headers, body: JSON.stringify(body) });
    const res = await app.fetch(req, benchEnv, ctx);
    const text = await res.text(); // a streamed body is produced by waitUntil work
    await waitOnExecutionContext(ctx);
    return { status: res.status, text };
  };
  await call("/api/v1/config"); // warm: the first request of an isolate reads the settings
  const writes: [string, string, string, unknown][] = [
    ["PATCH a transaction (category)", "PATCH", `/api/v1/transactions/${txId}`, { category: "groceries" }],
    ["PUT a comment", "PUT", `/api/v1/transactions/${txId}/comment`, { comment: "weekly shop" }],
    ["PUT an override (create)", "PUT", "/api/v1/overrides/FRESH%20MART", { category: "groceries" }],
    ["PUT an override (update)", "PUT", "/api/v1/overrides/FRESH%20MART", { category: "Coffee & Cafes" }],
    ["DELETE an override", "DELETE", "/api/v1/overrides/FRESH%20MART", undefined],
    ["POST an ignore rule (create)", "POST", "/api/v1/ignore-rules", { pattern: "FRESH MART" }],
    [
      "PUT an alias (create)",
      "PUT",
      "/api/v1/merchant-aliases/FRSH%20MRT%20QC",
      { canonical_name: "FRESH MART" },
    ],
    [
      "PUT an alias (update)",
      "PUT",
      "/api/v1/merchant-aliases/FRSH%20MRT%20QC",
      { canonical_name: "Fresh Mart Market" },
    ],
    ["DELETE an alias", "DELETE", "/api/v1/merchant-aliases/FRSH%20MRT%20QC", undefined],
    ["PUT the budget config (create)", "PUT", "/api/v1/budget/config?year=2024", budget(null)],
    ["PUT the budget config (update)", "PUT", "/api/v1/budget/config?year=2024", budget(1)],
    ["PUT the app config", "PUT", "/api/v1/config", { insights_user_memo: "bench" }],
    ["POST a category", "POST", "/api/v1/categories", { name: "Pottery" }],
    ["PUT a category's group", "PUT", "/api/v1/categories/Pottery/group", { group: "Leisure" }],
    ["POST apply the ignore rules", "POST", "/api/v1/ignore-rules/apply", { pattern: null }],
    [
      "POST a transaction by hand",
      "POST",
      "/api/v1/transactions",
      { date: "2024-03-12", amount: 9.5, company: "KIOSK" },
    ],
    [
      "POST resolve a parse failure (no template)",
      "POST",
      ...resolve(plain, "2026-10-12", 8.1, "Blue Door", false),
    ],
    [
      "POST resolve a parse failure (learns a template)",
      "POST",
      ...resolve(first, "2026-10-12", 12.47, "Tim Hortons"),
    ],
    ["POST resolve a parse failure (template merge)", "POST", ...resolve(second, "2026-10-13", 40, "Shell")],
  ];
  const rows: string[] = [];
  for (const [name, method, path, body] of writes) {
    counter.reset();
    const res = await call(path, method, body);
    expect(res.status, `${name}: ${res.text}`).toBeLessThan(300);
    // The entry is in the change's batch when a batch of several statements carries it.
    const inBatch = counter.trips.some(
      (t) => t.kind === "batch" && t.sql.length > 1 && t.sql.some((q) => q.includes('"activity_log"')),
    );
    rows.push(
      `${String(tally(counter.trips).trips).padStart(3)}  ${inBatch ? "in batch " : "separate "} ${name}`,
    );
    if ((env as { TRIPS?: string }).TRIPS)
      for (const l of describeTrips(counter.trips)) rows.push(`       ${l}`);
  }
  console.log(
    `\nD1 round trips per write (ledger entry in the change's batch or separate)\n${rows.join("\n")}`,
  );
});
