import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";

const TX_FIELDS = [
  "ForwardedTo",
  "DateFileName",
  "TransactionHash",
  "UserId",
  "Institution",
  "Amount",
  "Company",
  "TransactionType",
  "Category",
  "Name",
  "Date",
  "FileName",
  "FromName",
  "FromEmail",
  "ToName",
  "ToEmail",
  "Subject",
  "Body",
  "CategoryAudit",
  "ExtractionAudit",
  "Ignored",
  "Comment",
  "DeletedAt",
  "TransactionContext",
  "StatementSource",
];

describe("migrations and storage", () => {
  it("records every migration number in schema_version", async () => {
    const { results } = await env.DB.prepare(
      "SELECT version, applied_at FROM schema_version ORDER BY version",
    ).all<{
      version: number;
      applied_at: string;
    }>();
    expect(results.length).toBe(env.TEST_MIGRATIONS.length);
    // Each migration records its own number (the file name's prefix).
    expect(results.map((r) => r.version)).toEqual(
      env.TEST_MIGRATIONS.map((m) => Number.parseInt(m.name, 10)),
    );
    for (const r of results) expect(Number.isNaN(Date.parse(r.applied_at))).toBe(false);
  });

  it("applying every migration again is a no-op", async () => {
    await env.DB.prepare(
      "INSERT INTO transactions (ForwardedTo, DateFileName, TransactionHash, Amount) VALUES ('a@x', '2024.01.01_00.00_x.eml', 'h', 1)",
    ).run();
    const before = await env.DB.prepare(
      "SELECT version, applied_at FROM schema_version ORDER BY version",
    ).all();
    for (const m of env.TEST_MIGRATIONS) {
      for (const q of m.queries) await env.DB.prepare(q).run();
    }
    const after = await env.DB.prepare(
      "SELECT version, applied_at FROM schema_version ORDER BY version",
    ).all();
    expect(after.results).toEqual(before.results);
    expect(await env.DB.prepare("SELECT COUNT(*) AS n FROM transactions").first("n")).toBe(1);
  });

  it("the transaction table carries every SPEC field under its stored name", async () => {
    const { results } = await env.DB.prepare("PRAGMA table_info(transactions)").all<{
      name: string;
      pk: number;
    }>();
    const names = results.map((r) => r.name);
    for (const f of TX_FIELDS) expect(names, f).toContain(f);
    const pk = results.filter((r) => r.pk > 0).map((r) => r.name);
    expect(pk).toEqual(["ForwardedTo", "DateFileName"]);
  });

  it("a UNIQUE index on (ForwardedTo, TransactionHash) makes duplicate writes atomic", async () => {
    const ins = (dfn: string, fwd = "u@x") =>
      env.DB.prepare(
        "INSERT INTO transactions (ForwardedTo, DateFileName, TransactionHash) VALUES (?, ?, 'same-hash')",
      )
        .bind(fwd, dfn)
        .run();
    await ins("2024.02.01_10.00_a.eml");
    await expect(ins("2024.02.01_10.01_b.eml")).rejects.toThrow(/UNIQUE/);
    await expect(ins("2024.02.01_10.01_b.eml", "other@x")).resolves.toBeTruthy();
  });

  it("month queries use an index (query plan)", async () => {
    const plan = await env.DB.prepare(
      "EXPLAIN QUERY PLAN SELECT * FROM transactions WHERE DateFileName >= '2024.10.' AND DateFileName < '2024.11.'",
    ).all<{ detail: string }>();
    expect(plan.results.map((r) => r.detail).join(" ")).toMatch(/USING (COVERING )?INDEX/);
    const userPlan = await env.DB.prepare(
      "EXPLAIN QUERY PLAN SELECT * FROM transactions WHERE UserId = 'u' AND DateFileName >= '2024.10.' AND DateFileName < '2024.11.'",
    ).all<{ detail: string }>();
    expect(userPlan.results.map((r) => r.detail).join(" ")).toMatch(/idx_transactions_user_month/);
  });

  it("has config, user mapping and poller state tables", async () => {
    for (const t of ["app_config", "user_mappings", "poller_state", "parse_failures", "kv_state"]) {
      const row = await env.DB.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name = ?")
        .bind(t)
        .first();
      expect(row, t).not.toBeNull();
    }
  });
});
