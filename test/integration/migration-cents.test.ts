import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { call } from "../helpers/http";

// Migration 0007 turns decimal amounts into integer cents where they stand. This file's database is
// rebuilt as a journal created before 0007 (0001 then declared `Amount REAL`), filled with 100,000
// rows over ten years, and migrated; every month's totals must be identical to the cent.
const ROWS = 100_000;

const migration = (n: number) => {
  const m = env.TEST_MIGRATIONS.find((x) => Number.parseInt(x.name, 10) === n);
  if (!m) throw new Error(`no migration ${n}`);
  return m.queries;
};

async function rebuildAsBefore0007() {
  await env.DB.batch([
    env.DB.prepare("DROP TABLE transactions"),
    env.DB.prepare("DROP TABLE budget_config"),
    env.DB.prepare("DELETE FROM schema_version WHERE version >= 7"),
  ]);
  for (const n of [1, 3, 4]) {
    for (const q of migration(n)) {
      const before = q.replace(/Amount INTEGER,[^\n]*/, "Amount REAL,");
      await env.DB.prepare(before).run();
    }
  }
  const cols = await env.DB.prepare("PRAGMA table_info(transactions)").all<{ name: string; type: string }>();
  expect(cols.results.find((c) => c.name === "Amount")?.type).toBe("REAL");
  // 100,000 rows, 2001-01 .. 2010-12, amounts with two decimals (some negative refunds, some deposits).
  await env.DB.prepare(
    `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${ROWS})
     INSERT INTO transactions (ForwardedTo, DateFileName, TransactionHash, Amount, TransactionType, Category, Ignored)
     SELECT 'me@x',
            printf('%04d.%02d.%02d_%02d.%02d_r%06d.eml', 2001 + (i % 120) / 12, 1 + (i % 12), 1 + (i % 28), i % 24, i % 60, i),
            'h' || i,
            ((i * 7919) % 250000) / 100.0 - CASE WHEN i % 97 = 0 THEN 500 ELSE 0 END,
            CASE WHEN i % 11 = 0 THEN 'e-transfer' ELSE 'purchase' END,
            'cat' || (i % 13),
            0
     FROM n`,
  ).run();
  await env.DB.prepare(
    `INSERT INTO budget_config (user_id, year, kind, data, version, updated_at) VALUES ('default', 2010, 'targets', ?, 3, 'x')`,
  )
    .bind(
      JSON.stringify({
        spending_ceiling: 12000.1,
        categories: {
          groceries: {
            target: 4800.05,
            input_mode: "yearly",
            monthly_amount: 400,
            category_type: "variable",
          },
        },
      }),
    )
    .run();
}

const monthTotals = (expr: string) =>
  env.DB.prepare(
    `SELECT substr(DateFileName, 1, 7) AS month, TransactionType AS type, ${expr} AS total, COUNT(*) AS n
     FROM transactions GROUP BY month, type ORDER BY month, type`,
  ).all<{ month: string; type: string; total: number; n: number }>();

describe("migration 0007: amounts to integer cents", () => {
  it("a 100,000-row journal keeps every month's totals to the cent, and running it again changes nothing", async () => {
    await rebuildAsBefore0007();
    // What the code before 0007 reported: the REAL sum rounded to cents.
    const before = await monthTotals("ROUND(SUM(Amount) * 100)");
    expect(before.results.length).toBe(240);

    for (const q of migration(7)) await env.DB.prepare(q).run();
    const after = await monthTotals("SUM(Amount)");
    expect(after.results).toEqual(before.results);
    const nonIntegral = await env.DB.prepare(
      "SELECT COUNT(*) AS n FROM transactions WHERE Amount != CAST(Amount AS INTEGER)",
    ).first<number>("n");
    expect(nonIntegral).toBe(0);

    // Idempotent: the guard (schema_version 7) makes a second run a no-op.
    for (const q of migration(7)) await env.DB.prepare(q).run();
    expect((await monthTotals("SUM(Amount)")).results).toEqual(before.results);

    const doc = JSON.parse(
      (await env.DB.prepare("SELECT data FROM budget_config WHERE year = 2010").first<string>("data"))!,
    );
    expect(doc).toMatchObject({
      money: "cents",
      spending_ceiling: 1200010,
      categories: { groceries: { target: 480005, monthly_amount: 40000 } },
    });
  });

  it("the API still speaks decimal amounts after the migration", async () => {
    const res = await call("/api/v1/transactions?month=2001-02");
    expect(res.status).toBe(200);
    const stored = await env.DB.prepare(
      "SELECT SUM(Amount) AS c FROM transactions WHERE DateFileName >= '2001.02.' AND DateFileName < '2001.03.' AND DeletedAt IS NULL",
    ).first<number>("c");
    const api = res.body.transactions.reduce(
      (s: number, t: { amount: number }) => s + Math.round(t.amount * 100),
      0,
    );
    expect(api).toBe(stored);
    for (const t of res.body.transactions) expect(Number.isInteger(Math.round(t.amount * 100))).toBe(true);
  });
});
