/**
 * The production-limits wrapper (test/helpers/limits.ts) catches each of Cloudflare's documented
 * limits on the bindings every integration test uses, and names the limit; the SQL scan does not
 * count what is not a function call or a pattern.
 */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { Env } from "../../src/env";
import {
  D1_LIMITS,
  expectBreach,
  KV_LIMITS,
  limitedKV,
  perInvocation,
  QUEUE_LIMITS,
  shapeOf,
  takeBreaches,
  unlimited,
} from "../helpers/limits";

const params = (n: number) => Array.from({ length: n }, () => "?").join(", ");
const run = (sql: string, ...bound: unknown[]) =>
  env.DB.prepare(sql)
    .bind(...bound)
    .all();

describe("D1's statement limits", () => {
  it("100 bound parameters", async () => {
    await run(`SELECT ${params(100)}`, ...Array(100).fill(1));
    const b = await expectBreach("bound parameters", () =>
      run(`SELECT ${params(101)}`, ...Array(101).fill(1)),
    );
    expect(b).toMatchObject({ value: 101, max: D1_LIMITS.boundParameters });
  });

  it("100,000-byte statements", async () => {
    await run(`SELECT '${"x".repeat(99_000)}'`);
    const b = await expectBreach("statement bytes", () => run(`SELECT '${"é".repeat(50_000)}'`));
    expect(b.value).toBe(100_009);
  });

  it("32 arguments per SQL function, inside any expression", async () => {
    await run(`SELECT json_array(${params(32)})`, ...Array(32).fill(1));
    const b = await expectBreach("function arguments", () =>
      env.DB.batch([env.DB.prepare(`SELECT (SELECT coalesce(${Array(33).fill("NULL").join(",")}))`)]),
    );
    expect(b).toMatchObject({ value: 33, max: 32 });
    expect(b.what).toContain("coalesce()");
  });

  it("50-byte LIKE and GLOB patterns, bound or literal or joined", async () => {
    await run("SELECT 'a' LIKE ? ESCAPE '\\'", `%${"a".repeat(48)}%`);
    await expectBreach("LIKE/GLOB pattern bytes", () => run("SELECT 'a' LIKE ?", `%${"a".repeat(49)}%`));
    await expectBreach("LIKE/GLOB pattern bytes", () => run(`SELECT 'a' GLOB '*${"ü".repeat(25)}*'`));
    await expectBreach("LIKE/GLOB pattern bytes", () =>
      run("SELECT 'a' NOT LIKE '%' || ? || '%'", "a".repeat(49)),
    );
  });

  it("2,000,000-byte values: bound, and given back", async () => {
    await expectBreach("value bytes", () => run("SELECT length(?)", "x".repeat(2_000_001)));
    const b = await expectBreach("value bytes", () =>
      env.DB.prepare("SELECT zeroblob(2000001) AS z").first(),
    );
    expect(b.what).toContain("result value");
  });

  it("2,000,000-byte rows", async () => {
    await run("SELECT zeroblob(1000000), zeroblob(999000)");
    await expectBreach("row bytes", () =>
      env.DB.prepare("SELECT zeroblob(1000000), zeroblob(1000001)").raw(),
    );
  });

  it("5 terms per compound SELECT (multi-row VALUES is not one)", async () => {
    await run(`SELECT 1 ${" UNION ALL SELECT 1".repeat(4)}`);
    await run(`SELECT * FROM (VALUES ${Array(20).fill("(1)").join(", ")})`);
    await expectBreach("compound SELECT terms", () => run(`SELECT 1 ${" UNION SELECT 2".repeat(5)}`));
  });
});

describe("per invocation (Workers plan)", () => {
  it("D1 queries: 50 on Free, 1,000 on Paid (a batch is one subrequest)", async () => {
    const free = perInvocation(env, "free");
    for (let i = 0; i < 49; i++) await free.env.DB.prepare("SELECT 1").first();
    await free.env.DB.batch([free.env.DB.prepare("SELECT 1")]);
    expect(free.counts.d1Queries).toBe(50);
    await expectBreach("D1 queries per invocation", () => free.env.DB.prepare("SELECT 1").first());
    const paid = perInvocation(env);
    await paid.env.DB.batch(Array.from({ length: 60 }, () => paid.env.DB.prepare("SELECT 1")));
    expect(paid.counts).toEqual({ d1Queries: 1, operations: 1 });
  });

  it("operations on bindings (R2, KV, Queues, D1): 50 on Free, 1,000 on Paid", async () => {
    const inv = perInvocation(env, "free");
    await inv.env.DB.batch([inv.env.DB.prepare("SELECT 1"), inv.env.DB.prepare("SELECT 2")]);
    for (let i = 0; i < 49; i++) await inv.env.FILES.head(`nothing/${i}`);
    expect(inv.counts).toEqual({ d1Queries: 1, operations: 50 });
    await expectBreach("operations per invocation", () => inv.env.FILES.get("nothing"));
  });

  it("a Durable Object's stub: each RPC call or fetch is one operation (a subrequest)", async () => {
    const inv = perInvocation(env as unknown as Env, "free");
    const slot = inv.env.JOB_SLOT.get(inv.env.JOB_SLOT.idFromName("limits-test"));
    expect(inv.counts.operations).toBe(0);
    await slot.status();
    await slot.status();
    expect(inv.counts).toEqual({ d1Queries: 0, operations: 2 });
    for (let i = 0; i < 48; i++) await inv.env.FILES.head(`nothing/${i}`);
    await expectBreach("operations per invocation", () => slot.status());
  });
});

describe("Queues and KV", () => {
  it("a queue message is at most 128 KB with its metadata; a batch 100 messages and 256 KB", async () => {
    const max = QUEUE_LIMITS.messageBytes - QUEUE_LIMITS.metadataBytes;
    await expectBreach("queue message bytes", () => env.JOBS.send("x".repeat(max + 1)));
    await expectBreach("queue batch", () =>
      env.JOBS.sendBatch(Array.from({ length: 101 }, () => ({ body: 1 }))),
    );
    await expectBreach("queue batch", () =>
      env.JOBS.sendBatch(Array.from({ length: 3 }, () => ({ body: "x".repeat(100_000) }))),
    );
  });

  it("KV: 25 MiB values, 512-byte keys, one write per second to a key", async () => {
    let now = 0;
    const kv = limitedKV(unlimited().OAUTH_KV!, () => now);
    await kv.put("a", "1");
    now += 1000;
    await kv.put("a", "2");
    now += 999;
    await expectBreach("KV writes per second per key", () => kv.put("a", "3"));
    await expectBreach("KV key bytes", () => kv.put("k".repeat(KV_LIMITS.keyBytes + 1), "1"));
    now += 5000;
    await expectBreach("KV value bytes", () => kv.put("big", new Uint8Array(KV_LIMITS.valueBytes + 1)));
  });
});

describe("the SQL scan", () => {
  it("counts function calls only: not column lists, IN lists or VALUES", () => {
    const cols = Array.from({ length: 40 }, (_, i) => `"c${i}"`).join(", ");
    const shape = shapeOf(
      `insert into "t" (${cols}) values (${params(40)}) ON CONFLICT("a") DO UPDATE SET x = excluded.x; ` +
        `SELECT max(a, b), count(*), f() FROM t WHERE a IN (${params(40)}) AND b LIKE 'x' || ? ESCAPE '\\' -- json_array(1)`,
    );
    expect(shape.calls).toEqual([
      { name: "max", args: 2 },
      { name: "count", args: 1 },
      { name: "f", args: 0 },
    ]);
    expect(shape.patterns).toEqual([{ literalBytes: 1, params: [81] }]);
    expect(shape.placeholders).toBe(81);
  });

  it("finds a compound SELECT inside a subquery, and each depth apart", () => {
    expect(shapeOf("SELECT (SELECT 1 UNION SELECT 2 UNION SELECT 3) UNION SELECT 4").compoundTerms).toBe(3);
    expect(shapeOf("SELECT 'UNION UNION' FROM \"union\"").compoundTerms).toBe(1);
  });

  it("a breach fails the test even when the code catches it", async () => {
    await run(`SELECT ${params(101)}`, ...Array(101).fill(1)).catch(() => "caught");
    // The setup's afterEach would fail this test with the limit named: taken here to show it.
    expect(takeBreaches().map((b) => b.limit)).toEqual(["bound parameters"]);
  });
});
