import { type D1Migration, applyD1Migrations, env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { diffShapes, shapeOfDatabase } from "../helpers/schema-shape";
import { unlimitedDB } from "../helpers/limits";

// A journal deployed early took migrations one at a time, some in their first text (0001 with
// `Amount REAL`, 0014 with the 7-column index: test/fixtures/migration-history). Upgraded with rows
// in it, it must end with the same tables, columns and indexes as a fresh database, and keep its rows.

const first = new Map(env.TEST_MIGRATION_HISTORY.map((m) => [m.name, m]));
/** Every migration as a journal deployed before the edits took it, in order. */
const history: D1Migration[] = env.TEST_MIGRATIONS.map((m) => first.get(m.name) ?? m);
const version = (m: D1Migration) => Number.parseInt(m.name, 10);

/** Drops every table of this file's database (the setup file migrated it). */
async function wipe() {
  for (let pass = 0; pass < 5; pass++) {
    const { results } = await env.DB.prepare(
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%'",
    ).all<{ name: string }>();
    if (results.length === 0) return;
    for (const { name } of results)
      await env.DB.prepare(`DROP TABLE "${name}"`)
        .run()
        .catch(() => {});
  }
  throw new Error("could not empty the database");
}

const tx = (i: number, amount: number) =>
  env.DB.prepare(
    `INSERT INTO transactions (ForwardedTo, DateFileName, TransactionHash, Amount, Company, TransactionType, Category, Ignored)
     VALUES ('me@x', ?, ?, ?, 'Shop ' || ?, 'purchase', 'groceries', 0)`,
  ).bind(`2024.0${1 + (i % 9)}.1${i % 10}_10.00_u${i}.eml`, `h${i}`, amount, i);

const coverColumns = async () =>
  (
    await env.DB.prepare(
      "SELECT name FROM pragma_index_info('idx_transactions_month_cover') ORDER BY seqno",
    ).all<{
      name: string;
    }>()
  ).results.map((r) => r.name);

describe("a database upgraded one migration at a time from 0001 matches a fresh one", () => {
  it("replays the history with rows in it: same shape (bar 0007's documented REAL), rows kept, 0014 repaired", async () => {
    expect(first.size).toBe(2);
    const fresh = await shapeOfDatabase(env.DB);
    await wipe();

    let before15: string[] = [];
    for (const m of history) {
      await applyD1Migrations(unlimitedDB(), [m]);
      const v = version(m);
      // Rows at every step: decimal dollars before 0007 converts them, cents after.
      if (v === 1) await env.DB.batch([tx(1, 12.34), tx(2, 0.5), tx(3, 1999.99)]);
      if (v >= 7) await tx(100 + v, 4321).run();
      // kv_state before 0024: a bare-text notice stamp and the retired resolver stamp.
      if (v === 23)
        await env.DB.batch([
          env.DB.prepare(
            "INSERT INTO kv_state (key, value, updated_at) VALUES ('quarantine_notice:cibc', '2024-10-20T13:00:00.000Z', 'x'), ('resolver_version', '2024-10-20T13:00:00.000Z#1', 'x'), ('ai_categorization', '{\"status\":\"ok\"}', 'x')",
          ),
        ]);
      if (v === 14) {
        expect(await coverColumns()).toHaveLength(7); // the first 0014 text, as such journals hold it
        before15 = diffShapes(fresh, await shapeOfDatabase(env.DB));
      }
    }

    // Without 0015 the upgraded journal kept the 7-column index: the comparison sees it.
    expect(before15.some((d) => d.includes("index idx_transactions_month_cover is"))).toBe(true);
    // With it, the only difference is the one 0007 documents: the old column keeps its REAL
    // declaration and holds integral cents.
    const upgraded = await shapeOfDatabase(env.DB);
    expect(diffShapes(fresh, upgraded)).toEqual([
      "transactions.Amount: type is INTEGER in schema.ts, REAL in the migrations",
    ]);
    expect(await coverColumns()).toEqual(fresh.transactions!.indexes.idx_transactions_month_cover!.columns);

    const { results } = await env.DB.prepare(
      "SELECT TransactionHash AS h, Amount AS a FROM transactions ORDER BY TransactionHash",
    ).all<{ h: string; a: number }>();
    const byHash = Object.fromEntries(results.map((r) => [r.h, r.a]));
    expect(byHash).toMatchObject({ h1: 1234, h2: 50, h3: 199999, h107: 4321, h115: 4321 });
    expect(results).toHaveLength(3 + history.filter((m) => version(m) >= 7).length);
    const versions = await env.DB.prepare("SELECT version FROM schema_version ORDER BY version").all<{
      version: number;
    }>();
    expect(versions.results.map((r) => r.version)).toEqual(history.map(version));
    // 0024: every kv_state value is JSON (the notice stamp quoted), the resolver stamp is gone.
    const kv = await env.DB.prepare("SELECT key, value FROM kv_state ORDER BY key").all<{
      key: string;
      value: string;
    }>();
    expect(kv.results).toEqual([
      { key: "ai_categorization", value: '{"status":"ok"}' },
      { key: "quarantine_notice:cibc", value: '"2024-10-20T13:00:00.000Z"' },
    ]);
  });

  it("0024 is idempotent: a second run quotes nothing twice", async () => {
    const m = env.TEST_MIGRATIONS.find((x) => version(x) === 24)!;
    for (const q of m.queries) await env.DB.prepare(q).run();
    const row = await env.DB.prepare(
      "SELECT value FROM kv_state WHERE key = 'quarantine_notice:cibc'",
    ).first<{
      value: string;
    }>();
    expect(row?.value).toBe('"2024-10-20T13:00:00.000Z"');
  });

  it("0015 is idempotent: running it again leaves the same 12-column index", async () => {
    const m = env.TEST_MIGRATIONS.find((x) => version(x) === 15)!;
    const once = await coverColumns();
    for (const q of m.queries) await env.DB.prepare(q).run();
    expect(await coverColumns()).toEqual(once);
    expect(once).toHaveLength(12);
  });
});
