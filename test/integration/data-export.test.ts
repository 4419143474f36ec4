import { env } from "cloudflare:test";
import { unzipSync } from "fflate";
import { describe, expect, it } from "vitest";
import { PASSWORD, seedToken, setPassword, withCookie } from "../helpers/auth";
import { call } from "../helpers/http";
import { seedTx } from "../helpers/seed";
import { insertEntry } from "../../src/domains/activity/queries";
import { countingD1 } from "../../bench/lib/d1-count";
import { EXPORTED_TABLES } from "../../src/domains/data/rules";

async function download(
  headers: Record<string, string> = {},
  extraEnv: Record<string, unknown> = {},
  method = "GET",
) {
  const { createApp } = await import("../../src/app");
  const { createExecutionContext, waitOnExecutionContext } = await import("cloudflare:test");
  const ctx = createExecutionContext();
  const res = await createApp().fetch(
    new Request("http://localhost/api/v1/data/export", { headers, method }),
    { ...env, ...extraEnv },
    ctx,
  );
  const bytes = new Uint8Array(await res.arrayBuffer());
  await waitOnExecutionContext(ctx);
  return { res, bytes };
}

describe("GET /api/v1/data/export", () => {
  it("streams a zip of every table with a manifest, quarantined rows included, secrets excluded", async () => {
    for (let i = 0; i < 2105; i++) {
      await env.DB.prepare(
        "INSERT INTO transactions (ForwardedTo, DateFileName, TransactionHash, Amount, Category, CategoryAudit) VALUES ('me@x', ?, ?, 1, 'x', '{\"source\":\"override\"}')",
      )
        .bind(`2024.01.01_00.00_${String(i).padStart(5, "0")}.eml`, `h${i}`)
        .run();
    }
    await seedTx({
      DateFileName: "2024.02.01_10.00_deleted.eml",
      DeletedAt: "2024-02-02T00:00:00Z",
      Amount: 23.45,
    });
    await env.DB.prepare(
      "INSERT INTO parse_failures (id, status, failure_stage, from_email, subject, body, created_at, updated_at) VALUES ('pf_1', 'quarantined', 'no_parser_match', 'a@bank', 'Alert', 'body', 'x', 'x')",
    ).run();
    // Ledger images: one written by drizzle's JSON mode, one as older code stored it (text, "null").
    await env.DB.prepare("DELETE FROM activity_log").run();
    await insertEntry(env.DB, {
      id: "act_json_mode",
      ts: "2024-02-03T00:00:00.000Z",
      principal_kind: "tofu",
      principal_id: null,
      principal_label: null,
      operation_id: "putOverride",
      method: "PUT",
      path: "/api/v1/overrides/X",
      resource_kind: "override",
      resource_id: "X",
      summary: "created override",
      before_json: {},
      after_json: { company: "X", category: "food" },
      reversible: 1,
      reverted_at: null,
      reverted_by: null,
    });
    await env.DB.prepare(
      `INSERT INTO activity_log (id, ts, resource_kind, before_json, after_json, reversible)
       VALUES ('act_text', '2024-02-04T00:00:00.000Z', 'override', '{"company":"Y","category":"fun"}', 'null', 1)`,
    ).run();
    const cookie = await setPassword();
    const { token } = await seedToken("read");
    const counter = countingD1(env.DB);
    const { res, bytes } = await download(withCookie(cookie), { DB: counter.db });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/zip");
    expect(res.headers.get("content-disposition")).toMatch(
      /attachment; filename="finance-journal-backup-.*\.zip"/,
    );
    // auth; the inventory (versions and every count) WITH the first pages, sized in SQL to at most
    // 2,000 rows: the transactions' first 2,000 (every later page asks for 0); then the other 106
    // with every other table and the files' key lists (was 4: the inventory alone, then 2 batches).
    expect(counter.trips).toHaveLength(3);
    const [, first, rest] = counter.trips;
    expect(first!.sql.filter((q) => /COUNT\(\*\) AS n FROM/.test(q)).length).toBeGreaterThan(20);
    expect(first!.sql.filter((q) => /ORDER BY (rowid|id|k) LIMIT max\(0, min\(/.test(q)).length).toBe(
      first!.sql.length - 1 - EXPORTED_TABLES.length,
    );
    expect(rest!.sql.length).toBeGreaterThan(25);
    expect(rest!.sql.join(" ")).toMatch(/"transactions".*"blocked_companies".*"attachments".*FileName/s);
    const files = unzipSync(bytes);
    const json = (name: string) => JSON.parse(new TextDecoder().decode(files[name]!));
    expect(Object.keys(files)).toEqual(
      expect.arrayContaining([
        "transactions.json",
        "parse_failures.json",
        "manifest.json",
        "app_config.json",
      ]),
    );
    const txs = json("transactions.json") as Record<string, unknown>[];
    expect(txs).toHaveLength(2106); // across two pages, deleted rows included
    expect(txs[0]!.CategoryAudit).toEqual({ source: "override" });
    expect(txs[0]).not.toHaveProperty("_rid");
    // Stored in cents, exported as SPEC.md's decimal Amount (backups read the same as before cents).
    expect(txs[0]!.Amount).toBe(0.01);
    expect(txs.find((t) => t.DateFileName === "2024.02.01_10.00_deleted.eml")?.Amount).toBe(23.45);
    const ledger = json("activity_log.json") as Record<string, unknown>[];
    expect(ledger.find((e) => e.id === "act_json_mode")).toMatchObject({
      before_json: {},
      after_json: { company: "X", category: "food" },
    });
    expect(ledger.find((e) => e.id === "act_text")).toMatchObject({
      before_json: { company: "Y", category: "fun" },
      after_json: null,
    });
    expect(json("parse_failures.json")[0]).toMatchObject({
      id: "pf_1",
      failure_stage: "no_parser_match",
      from_email: "a@bank",
    });
    const manifest = json("manifest.json");
    expect(manifest.counts.transactions).toBe(2106);
    expect(manifest.excluded).toEqual(expect.arrayContaining(["api_tokens", "auth_settings"]));
    const everything = Object.values(files)
      .map((f) => new TextDecoder().decode(f))
      .join("\n");
    expect(everything).not.toMatch(/password_hash|token_hash|session_secret/);
    expect(everything).not.toContain(token);
    expect(everything).not.toContain(PASSWORD);
    expect(files["api_tokens.json"]).toBeUndefined();
  }, 60_000);

  it("needs credentials once a password is set, and is disabled in the demo", async () => {
    expect((await call("/api/v1/data/export")).status).toBe(401);
    const demo = await download({}, { DEMO_MODE: "true" });
    expect(demo.res.status).toBe(405);
  });
});

describe("POST /api/v1/data/export (the reference's verb)", () => {
  it("answers the same zip as GET, and is not journaled", async () => {
    await env.DB.prepare("DELETE FROM activity_log").run();
    const { token } = await seedToken("read+write");
    const auth = { authorization: `Bearer ${token}` };
    await env.DB.prepare("DELETE FROM transactions").run(); // the 2,106 rows of the test above
    await seedTx({ DateFileName: "2024.02.01_10.00_small.eml" });
    // A household of normal size: besides the door's trips (a token's first use also stamps it),
    // ONE trip reads data: the inventory and every table's pages and the files' key lists, sized
    // in SQL from the same counts (was 2: the inventory alone, then the pages).
    const trips = countingD1(env.DB);
    const get = await download(auth, { DB: trips.db });
    expect(get.res.status).toBe(200);
    const data = trips.trips.filter((t) =>
      t.sql.some((q) => /schema_version|ORDER BY (rowid|id|k) LIMIT/.test(q)),
    );
    expect(data).toHaveLength(1);
    expect(data[0]!.sql.join(" ")).toMatch(
      /COUNT\(\*\) AS n FROM.*"transactions".*"blocked_companies".*FileName/s,
    );
    expect(JSON.parse(new TextDecoder().decode(unzipSync(get.bytes)["transactions.json"]!))).toHaveLength(1);
    // The inventory batch failing (a table missing: never once migrated) falls back to reading
    // which tables exist first, then counting those.
    let failed = 0;
    const counter = countingD1(env.DB, {
      failBatch: (sql) => sql.some((q) => /COUNT\(\*\) AS n FROM/.test(q)) && failed++ === 0,
    });
    const post = await download(auth, { DB: counter.db }, "POST");
    const inventory = counter.trips.filter((t) =>
      t.sql.some((q) => /sqlite_master|COUNT\(\*\) AS n FROM/.test(q)),
    );
    expect(inventory.map((t) => t.kind)).toEqual(["batch", "single", "batch"]);
    expect(inventory[2]!.sql.length).toBeGreaterThan(20);
    expect(post.res.status).toBe(200);
    expect(post.res.headers.get("content-type")).toBe("application/zip");
    expect(post.res.headers.get("content-disposition")).toMatch(
      /attachment; filename="finance-journal-backup-/,
    );
    const names = (b: Uint8Array) => Object.keys(unzipSync(b)).sort();
    expect(names(post.bytes)).toEqual(names(get.bytes));
    const counts = (b: Uint8Array) =>
      JSON.parse(new TextDecoder().decode(unzipSync(b)["manifest.json"]!)).counts;
    expect(counts(post.bytes)).toEqual(counts(get.bytes));
    const { n } = (await env.DB.prepare("SELECT COUNT(*) AS n FROM activity_log").first<{ n: number }>())!;
    expect(n).toBe(0);
  }, 60_000);

  it("is disabled in the demo", async () => {
    expect((await download({}, { DEMO_MODE: "true" }, "POST")).res.status).toBe(405);
  });
});
