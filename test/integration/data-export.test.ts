import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { getDb } from "../../src/db";
import { unzipSync } from "fflate";
import { describe, expect, it } from "vitest";
import { bearer, PASSWORD, seedToken, setPassword, withCookie } from "../helpers/auth";
import { call } from "../helpers/http";
import { seedTx } from "../helpers/seed";
import { insertEntry } from "../../src/domains/activity/queries";
import { countingD1 } from "../../bench/lib/d1-count";
import { runBuildStep } from "../../src/domains/data/export-steps";
import type { Env } from "../../src/env";
import type { QueueMessage } from "../../src/jobs/messages";
import { PLAN_LIMITS, perInvocation } from "../helpers/limits";

/** `n` transactions in one statement (2024.01.01_00.00_00000.eml …), each pointing to its raw email when `emails`. */
async function bulkTransactions(n: number, emails = false) {
  await env.DB.prepare(
    `WITH RECURSIVE i(n) AS (SELECT 0 UNION ALL SELECT n + 1 FROM i WHERE n + 1 < ?)
     INSERT INTO transactions (ForwardedTo, DateFileName, TransactionHash, Amount, Category, CategoryAudit, FileName)
     SELECT 'me@x', '2024.01.01_00.00_' || substr('0000' || n, -5) || '.eml', 'h' || n, 1, 'x',
       '{"source":"override"}', CASE WHEN ? THEN 'emails/2024/01/' || substr('0000' || n, -5) || '.eml' END FROM i`,
  )
    .bind(n, emails ? 1 : 0)
    .run();
}

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
    await bulkTransactions(2105);
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
    await insertEntry(getDb(env.DB), {
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
    // auth; the size check (rows and files, each counted to just past what one request streams;
    // export-steps.ts: a larger journal is built in steps); the inventory (the tables, then every
    // count); then pages of at most 2,000 rows in all: the transactions' first 2,000, then the
    // other 106 with every other table; then the files' key lists, one each.
    expect(counter.trips.length).toBeLessThanOrEqual(9);
    expect(counter.trips[1]!.sql.join(" ")).toMatch(/COUNT\(\*\) AS size FROM/);
    const rest = counter.trips.at(-4)!;
    expect(rest.sql.length).toBeGreaterThan(25);
    expect(rest.sql.join(" ")).toMatch(/"transactions".*"blocked_companies"/s);
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
    // ONE trip reads every table's pages, then one each file key list.
    const trips = countingD1(env.DB);
    const get = await download(auth, { DB: trips.db });
    expect(get.res.status).toBe(200);
    const data = trips.trips.filter((t) => t.sql.some((q) => /ORDER BY (rowid|id|k) LIMIT/.test(q)));
    expect(data).toHaveLength(4);
    expect(data[0]!.sql.join(" ")).toMatch(/"transactions".*"blocked_companies"/s);
    expect(JSON.parse(new TextDecoder().decode(unzipSync(get.bytes)["transactions.json"]!))).toHaveLength(1);
    const post = await download(auth, {}, "POST");
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

describe("the backup zip built in bounded steps (issue 36)", () => {
  /** A queue that keeps what is sent (each step's next message), for the test to deliver. */
  const captured = () => {
    const sent: QueueMessage[] = [];
    const queue = {
      send: async (body: QueueMessage) => void sent.push(body),
      sendBatch: async () => undefined,
    } as unknown as Queue<unknown>;
    return { sent, queue };
  };
  /** Half of the Workers Paid per-invocation limits: every step must stay within. */
  const HALF = { d1Queries: PLAN_LIMITS.paid.d1Queries / 2, operations: PLAN_LIMITS.paid.operations / 2 };

  it("2,000 rows, 600 raw emails: GET answers 202, every invocation stays within half the Paid budget, progress rises to done", async () => {
    await env.DB.prepare("DELETE FROM transactions").run();
    await bulkTransactions(2000, true);
    await env.DB.prepare(
      "UPDATE transactions SET FileName = NULL WHERE CAST(substr(DateFileName, 18, 5) AS INTEGER) % 10 >= 3",
    ).run();
    const mails = ["00000", "00990", "01990"];
    for (const m of mails) await env.FILES.put(`emails/2024/01/${m}.eml`, `Subject: alert ${m}\r\n\r\nbody`);
    const auth = bearer((await seedToken("read+write")).token);
    const q = captured();
    const { createApp } = await import("../../src/app");
    const app = createApp();
    /** One request as its own invocation, its counts kept (the body read, as a client would). */
    const invoke = async (path: string, init: RequestInit = {}) => {
      const ctx = createExecutionContext();
      const inv = perInvocation({ ...env, JOBS: q.queue } as Env);
      const res = await app.fetch(
        new Request(`http://localhost${path}`, { ...init, headers: auth }),
        inv.env,
        ctx,
      );
      const bytes = new Uint8Array(await res.arrayBuffer());
      await waitOnExecutionContext(ctx);
      return { res, bytes, counts: inv.counts };
    };
    // On the old code this one request streamed the whole zip: 600 R2 reads and the D1 pages in
    // one invocation, past half of the 1,000 operations a Paid invocation allows.
    const first = await invoke("/api/v1/data/export");
    expect(first.res.status).toBe(202);
    expect(first.counts.operations).toBeLessThanOrEqual(HALF.operations);
    const started = JSON.parse(new TextDecoder().decode(first.bytes));
    expect(started).toMatchObject({ status: "running", rows_total: expect.any(Number), files_total: 600 });
    expect(started.files_done).toBeLessThan(600);
    const seen = [started.files_done as number];
    let steps = 0;
    while (q.sent.length) {
      const msg = q.sent.shift()!;
      const inv = perInvocation({ ...env, JOBS: q.queue } as Env);
      await runBuildStep(inv.env, msg);
      steps++;
      expect(inv.counts.d1Queries).toBeLessThanOrEqual(HALF.d1Queries);
      expect(inv.counts.operations).toBeLessThanOrEqual(HALF.operations);
      const status = await call("/api/v1/data/export/jobs/current", { headers: auth });
      seen.push(status.body.files_done);
    }
    expect(steps).toBeGreaterThanOrEqual(2);
    // Progress a person can watch: files done only ever rise, to all of them.
    expect(seen).toEqual([...seen].sort((a, b) => a - b));
    const done = await call("/api/v1/data/export/jobs/current", { headers: auth });
    expect(done.body).toMatchObject({ status: "done", rows_done: done.body.rows_total, files_done: 600 });
    expect(done.body.download_url).toBe(`/api/v1/data/export/jobs/${done.body.job_id}/file`);
    // The download: the same format-2 zip, and the restore reads it.
    const { res, bytes, counts } = await invoke(done.body.download_url);
    expect(counts.operations).toBeLessThan(10);
    expect(res.headers.get("content-disposition")).toMatch(/filename="finance-journal-backup-/);
    const files = unzipSync(bytes);
    expect(JSON.parse(new TextDecoder().decode(files["transactions.json"]!))).toHaveLength(2000);
    expect(new TextDecoder().decode(files["files/emails/2024/01/00990.eml"]!)).toContain("alert 00990");
    expect(JSON.parse(new TextDecoder().decode(files["manifest.json"]!)).counts.transactions).toBe(2000);
    const fd = new FormData();
    fd.append("file", new File([bytes], "backup.zip", { type: "application/zip" }));
    const preview = await call("/api/v1/data/import/preview", { method: "POST", rawBody: fd, headers: auth });
    expect(preview.status, preview.text).toBe(200);
    expect(preview.body.counts).toMatchObject({ total: 2000, duplicates: 2000 });
    // A second export removes the first's zip once it is done (one export kept).
    await env.DB.prepare("DELETE FROM transactions").run();
    const second = await call("/api/v1/data/export/jobs", {
      method: "POST",
      env: { JOBS: q.queue },
      headers: auth,
    });
    while (q.sent.length) await runBuildStep({ ...env, JOBS: q.queue } as Env, q.sent.shift()!);
    const zips = (await env.FILES.list({ prefix: "exports/", delimiter: "/" })).objects.map((o) => o.key);
    // The zip kept is the one just built (keys are random ids: their order is not their age).
    expect(zips).toEqual([`exports/${second.body.job_id}.zip`]);
    expect((await env.FILES.list({ prefix: "exports/steps/" })).objects).toEqual([]);
  }, 20_000);
});
