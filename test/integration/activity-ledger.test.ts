// The activity ledger: what is journaled, entry fields, the feed's filters, retention.
import {
  createExecutionContext,
  createScheduledController,
  env,
  waitOnExecutionContext,
} from "cloudflare:test";
import { beforeEach, describe, expect, it } from "vitest";
import { countingD1 } from "../../bench/lib/d1-count";
import { createApp } from "../../src/app";
import { eq } from "drizzle-orm";
import { getDb } from "../../src/db";
import { overrides } from "../../src/db/schema";
import { openLedger, SYSTEM } from "../../src/domains/activity/journal";
import { getEntry, insertEntry } from "../../src/domains/activity/queries";
import type { Env } from "../../src/env";
import worker from "../../src/index";
import { bearer, resetState, seedToken, setPassword, withCookie } from "../helpers/auth";
import { call, expectEnvelope } from "../helpers/http";
import { expectNoLoneEntry } from "../helpers/ledger-batch";
import { seedTx } from "../helpers/seed";

const putMemo = (memo: string, headers: Record<string, string> = {}, now?: string) =>
  call("/api/v1/config", { method: "PUT", body: { insights_user_memo: memo }, headers, now });

const feed = async (query = "", headers: Record<string, string> = {}) => {
  const res = await call(`/api/v1/activity${query}`, { headers });
  expect(res.status, res.text).toBe(200);
  return res.body.entries as any[];
};

const ENTRY_KEYS = [
  "after",
  "before",
  "id",
  "method",
  "operation_id",
  "path",
  "principal_id",
  "principal_kind",
  "principal_label",
  "resource_id",
  "reversible",
  "reverted_at",
  "reverted_by",
  "summary",
  "ts",
];

function seedRow(id: string, ts: string, extra: Record<string, unknown> = {}) {
  return insertEntry(getDb(env.DB), {
    id,
    ts,
    principal_kind: "tofu",
    principal_id: null,
    principal_label: null,
    operation_id: "seeded",
    method: "POST",
    path: "/api/v1/seeded",
    resource_kind: null,
    resource_id: null,
    summary: null,
    before_json: null,
    after_json: null,
    reversible: 0,
    reverted_at: null,
    reverted_by: null,
    ...extra,
  });
}

beforeEach(resetState);

describe("capture", () => {
  it("journals a successful write with SPEC.md's fields and staged images", async () => {
    const now = "2030-03-01T12:00:00.000Z";
    expect((await putMemo("first", {}, now)).status).toBe(200);
    const [e] = await feed();
    expect(Object.keys(e).sort()).toEqual(ENTRY_KEYS);
    expect(e).toMatchObject({
      ts: now,
      principal_kind: "tofu",
      principal_id: null,
      principal_label: null,
      operation_id: "putAppConfig",
      method: "PUT",
      path: "/api/v1/config",
      resource_id: "app",
      summary: "config: changed insights_user_memo",
      reversible: true,
      reverted_at: null,
      reverted_by: null,
    });
    expect(e.id).toMatch(/^act_[0-9a-f]{24}$/);
    expect(e.before.insights_user_memo).toBeNull();
    expect(e.after.insights_user_memo).toBe("first");
  });

  it("records the token principal", async () => {
    const t = await seedToken("read+write", "my agent");
    await putMemo("by token", bearer(t.token));
    const [e] = await feed();
    expect(e).toMatchObject({ principal_kind: "token", principal_id: t.id, principal_label: "my agent" });
  });

  it("skips reads, failures, refused calls and the session routes", async () => {
    const { token } = await seedToken("read");
    await call("/api/v1/config");
    await call("/api/v1/config", { method: "PUT", body: { insights_user_memo: 5 } });
    await call("/api/v1/config", {
      method: "PUT",
      body: { insights_user_memo: "x" },
      headers: bearer(token),
    });
    await call("/api/v1/activity/unknown/revert", { method: "POST" });
    const cookie = await setPassword();
    await call("/api/v1/auth/login", { method: "POST", body: { password: "correct horse battery" } });
    await call("/api/v1/auth/sign-out-all", { method: "POST", headers: withCookie(cookie) });
    await call("/api/v1/auth/logout", { method: "POST" });
    expect(await env.DB.prepare("SELECT COUNT(*) AS n FROM activity_log").first("n")).toBe(0);
  });

  it("journals token issue and revoke envelope-only (no images, not reversible)", async () => {
    const issued = await call("/api/v1/auth/tokens", {
      method: "POST",
      body: { label: "bot", scope: "read" },
    });
    await call(`/api/v1/auth/tokens/${issued.body.id}`, { method: "DELETE" });
    const [revoke, issue] = await feed();
    expect(issue).toMatchObject({
      operation_id: "issueApiToken",
      resource_id: issued.body.id,
      summary: 'issued read token "bot"',
      before: null,
      after: null,
      reversible: false,
    });
    expect(revoke).toMatchObject({
      operation_id: "revokeApiToken",
      path: `/api/v1/auth/tokens/${issued.body.id}`,
    });
    expect(JSON.stringify([issue, revoke])).not.toContain(issued.body.token);
  });

  it("never fails the request when the ledger cannot be written", async () => {
    await env.DB.prepare("ALTER TABLE activity_log RENAME TO activity_log_away").run();
    try {
      const res = await putMemo("still works");
      expect(res.status).toBe(200);
      expect(res.body.insights_user_memo).toBe("still works");
    } finally {
      await env.DB.prepare("ALTER TABLE activity_log_away RENAME TO activity_log").run();
    }
  });
});

describe("a verb journals in its own batch", () => {
  const ledgerRows = async () =>
    (await env.DB.prepare("SELECT COUNT(*) AS n FROM activity_log").first<number>("n")) ?? 0;
  let day = 0;
  const seedShop = () =>
    seedTx({
      DateFileName: `2030-02-${String(++day).padStart(2, "0")}T10:00:00Z`,
      Company: "FRESH MART",
      Category: null,
    });

  it("the entry is written before the response returns, with the change (no waitUntil)", async () => {
    const txId = await seedShop();
    const counter = countingD1(env.DB);
    const ctx = createExecutionContext();
    const req = new Request(`http://localhost/api/v1/transactions/${txId}`, {
      method: "PATCH",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ category: "Groceries" }),
    });
    const res = await createApp().fetch(req, { ...env, DB: counter.db } as Env, ctx);
    // The response is back: any trip begun from here on is waitUntil work (counted as background).
    counter.settle();
    await res.text();
    await waitOnExecutionContext(ctx);
    expect(res.status).toBe(200);
    const write = counter.trips.filter((t) => t.sql.some((q) => q.includes('"activity_log"')));
    expect(write).toHaveLength(1);
    expect(write[0]).toMatchObject({ kind: "batch", background: false });
    expect(write[0]?.sql.join(" ; ")).toMatch(/"attention_queue".*;.*"transactions".*;.*"activity_log"/);
    const [e] = await feed();
    expect(e).toMatchObject({ operation_id: "patchTransaction", resource_id: txId, reversible: true });
    expect(res.headers.get("X-Activity-Id")).toBe(e.id);
  });

  it("no write's entry is written alone after its change (a sweep of the verbs that journal)", async () => {
    const entries = async () => (await feed("?limit=500")).length;
    const write = async (path: string, method: string, body?: unknown) => {
      const counter = countingD1(env.DB);
      const before = await entries();
      const res = await call(path, { method, body, env: { DB: counter.db } });
      expect(res.status, `${method} ${path}: ${res.text}`).toBeLessThan(300);
      expectNoLoneEntry(counter);
      expect(await entries(), `${method} ${path}: one entry`).toBe(before + 1);
      return res;
    };
    const token = await write("/api/v1/auth/tokens", "POST", { label: "sweep", scope: "read" });
    await write(`/api/v1/auth/tokens/${token.body.id}`, "DELETE");
    const config = await write("/api/v1/config", "PUT", { insights_user_memo: "sweep" });
    const vet = { lines: [{ key: "vet", label: "Vet bills", categories: ["Pets"] }] };
    const mapping = await write("/api/v1/tax-pack/mapping", "PUT", vet);
    const alias = await write("/api/v1/merchant-aliases/SWP%2A4411", "PUT", { canonical_name: "Sweep Co" });
    const blocked = await write("/api/v1/blocked-companies/Sweep%20Gym", "PUT");
    await write("/api/v1/card-names", "PUT", { MBNA: { "1234": "Demo User" } });
    // Each revert's own entry rides in its restore's batch.
    for (const res of [blocked, alias, mapping, config])
      await write(`/api/v1/activity/${res.headers.get("X-Activity-Id")}/revert`, "POST");
    // The check itself: an entry written alone after a change is caught.
    const lone = countingD1(env.DB);
    await lone.db.prepare('UPDATE "app_config" SET "updated_at" = "updated_at"').run();
    await lone.db
      .prepare(
        'INSERT INTO "activity_log" (id, ts, principal_kind, operation_id, method, path, reversible) ' +
          "VALUES ('act_lone', '2030-01-01T00:00:00Z', 'tofu', 'x', 'PUT', '/x', 0)",
      )
      .run();
    expect(() => expectNoLoneEntry(lone)).toThrow(/an entry written alone/);
  });

  it("a batch that fails leaves neither the change nor its entry", async () => {
    const txId = await seedShop();
    await putMemo("kept");
    const before = await ledgerRows();
    // The reads pass; the write statement of each batch aborts (the ledger insert comes after it).
    const abort = (name: string, on: string) =>
      env.DB.prepare(`CREATE TRIGGER ${name} BEFORE ${on} BEGIN SELECT RAISE(ABORT, 'refused'); END`).run();
    await abort("t_tx", "UPDATE ON transactions");
    await abort("t_ov", "INSERT ON overrides");
    try {
      const patched = await call(`/api/v1/transactions/${txId}`, {
        method: "PATCH",
        body: { category: "Groceries" },
      });
      expect(patched.status).toBe(500);
      const ruled = await call("/api/v1/overrides/FRESH%20MART", {
        method: "PUT",
        body: { category: "Groceries" },
      });
      expect(ruled.status).toBe(500);
    } finally {
      await env.DB.prepare("DROP TRIGGER t_tx").run();
      await env.DB.prepare("DROP TRIGGER t_ov").run();
    }
    const detail = await call(`/api/v1/transactions/${txId}/detail`);
    expect(detail.body.transaction.category).toBeNull();
    expect((await call("/api/v1/overrides")).body.count).toBe(0);
    expect(await ledgerRows()).toBe(before);
  });

  it("a guarded write that matches nothing (stale budget version) leaves no entry", async () => {
    const body = (v: number | null) => ({
      spending_ceiling: 1000,
      categories: { Groceries: { target: 100, input_mode: "monthly", category_type: "variable" } },
      groups: [],
      targets_version: v,
      groups_version: v,
    });
    const put = (v: number | null) =>
      call("/api/v1/budget/config?year=2030", { method: "PUT", body: body(v) });
    expect((await put(null)).status).toBe(200);
    const before = await ledgerRows();
    expectEnvelope(await put(7), 409, "CONFLICT");
    expect(await ledgerRows()).toBe(before);
  });

  it("a door's entries are the written ones: a guarded entry its batch did not write is not named", async () => {
    const envelope = () => ({ principal: SYSTEM, operationId: "test", method: "PUT", path: "/test" });
    const ledger = openLedger(getDb(env.DB), () => new Date("2030-03-01T00:00:00Z"), envelope);
    const db = getDb(env.DB);
    const image = (category: string) => ({ company: "GHOST", category });
    const update = (c: string) =>
      db.update(overrides).set({ category: c }).where(eq(overrides.company, "GHOST"));
    // The guarded write matches nothing: its entry is queued but never written.
    const lost = ledger.journal({ kind: "override", resourceId: "GHOST", before: {}, after: image("a") });
    await ledger.batch([update("a")], { ifChanged: true });
    expect(await getEntry(getDb(env.DB), lost)).toBeNull();
    expect(ledger.entries).toEqual([]);
    expect(ledger.journaled).toBe(1);
    // Once the row exists, the same guarded write changes it and its entry is written and named.
    await db.insert(overrides).values({ company: "GHOST", category: "x", created_at: "t", updated_at: "t" });
    const kept = ledger.journal({ kind: "override", resourceId: "GHOST", before: {}, after: image("b") });
    await ledger.batch([update("b")], { ifChanged: true });
    // An entry the door writes at settle is named too; nothing is left queued after it.
    const settled = ledger.journal({ summary: "settled" });
    await ledger.settle(true);
    expect(ledger.entries.map((e) => e.id)).toEqual([kept, settled]);
    for (const id of [kept, settled]) expect(await getEntry(getDb(env.DB), id)).not.toBeNull();
    expect(ledger.journaled).toBe(3);
  });

  it("an MCP write tool and its HTTP route journal the same entry", async () => {
    const txId = await seedShop();
    const { token } = await seedToken("read+write", "agent");
    const rpc = await call("/mcp", {
      method: "POST",
      headers: { ...bearer(token), accept: "application/json, text/event-stream" },
      body: {
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: { name: "set_comment", arguments: { tx_id: txId, comment: "weekly shop" } },
      },
    });
    expect(rpc.status, rpc.text).toBe(200);
    expect(rpc.body.result.isError ?? false).toBe(false);
    await call(`/api/v1/transactions/${txId}/comment`, {
      method: "PUT",
      body: { comment: "weekly shop" },
      headers: bearer(token),
    });
    const [http, mcp] = await feed();
    expect(mcp.id).toBe(rpc.body.result.structuredContent.activity_id);
    expect(mcp).toMatchObject({ operation_id: "mcp.set_comment", method: "POST", path: "/mcp" });
    expect(http).toMatchObject({ operation_id: "setTransactionComment", method: "PUT" });
    const shape = ({ id, ts, operation_id, method, path, before, ...rest }: any) => rest;
    expect(shape(mcp)).toEqual(shape(http));
    expect(shape(http)).toMatchObject({
      principal_kind: "token",
      resource_id: txId,
      summary: "comment on FRESH MART",
      reversible: true,
    });
    expect(mcp.after).toEqual(http.after);
    expect(mcp.before.Comment).toBeNull();
    expect(http.before.Comment).toBe("weekly shop");
  });
});

describe("GET /api/v1/activity", () => {
  it("lists newest first with limit default 100 and max 500", async () => {
    const base = Date.parse("2030-01-01T00:00:00Z");
    for (let i = 0; i < 120; i += 40) {
      await env.DB.batch(
        Array.from({ length: 40 }, (_, j) => {
          const n = i + j;
          const ts = new Date(base + n * 1000).toISOString();
          return env.DB.prepare(
            "INSERT INTO activity_log (id, ts, operation_id, reversible) VALUES (?, ?, 'seeded', 0)",
          ).bind(`act_${String(n).padStart(3, "0")}`, ts);
        }),
      );
    }
    const all = await feed();
    expect(all).toHaveLength(100);
    expect(all[0].id).toBe("act_119");
    expect(all[99].id).toBe("act_020");
    expect(await feed("?limit=500")).toHaveLength(120);
    expect((await feed("?limit=3")).map((e) => e.id)).toEqual(["act_119", "act_118", "act_117"]);
    for (const bad of ["0", "501", "x"]) {
      expectEnvelope(await call(`/api/v1/activity?limit=${bad}`), 422, "VALIDATION_ERROR");
    }
  });

  it("filters by since (inclusive), operation and principal", async () => {
    const t = await seedToken("read+write", "agent");
    await seedRow("act_a", "2030-01-01T00:00:00.000Z", { principal_kind: "token", principal_id: t.id });
    await seedRow("act_b", "2030-01-02T00:00:00.000Z", { operation_id: "putAppConfig" });
    await seedRow("act_c", "2030-01-03T00:00:00.000Z", { principal_kind: "session" });
    const ids = (entries: any[]) => entries.map((e) => e.id);
    expect(ids(await feed("?since=2030-01-02T00:00:00.000Z"))).toEqual(["act_c", "act_b"]);
    expect(ids(await feed("?since=2030-01-02"))).toEqual(["act_c", "act_b"]);
    expect(ids(await feed("?operation=putAppConfig"))).toEqual(["act_b"]);
    expect(ids(await feed(`?principal=${t.id}`))).toEqual(["act_a"]);
    expect(ids(await feed("?principal=me", bearer(t.token)))).toEqual(["act_a"]);
    expect(ids(await feed("?principal=me"))).toEqual(["act_b"]);
    expectEnvelope(await call("/api/v1/activity?since=yesterday"), 422, "VALIDATION_ERROR");
  });

  it("is readable with a read token", async () => {
    const { token } = await seedToken("read");
    expect((await call("/api/v1/activity", { headers: bearer(token) })).status).toBe(200);
  });
});

describe("retention", () => {
  it("the daily cron prunes entries older than 90 days", async () => {
    const now = Date.now();
    const days = (d: number) => new Date(now - d * 24 * 3600 * 1000).toISOString();
    await seedRow("act_old", days(91));
    await seedRow("act_edge", days(89));
    await seedRow("act_new", days(1));
    const ctx = createExecutionContext();
    await worker.scheduled(createScheduledController({ cron: "30 3 * * *" }), env, ctx);
    await waitOnExecutionContext(ctx);
    const left = await env.DB.prepare("SELECT id FROM activity_log ORDER BY id").all();
    expect(left.results.map((r) => r.id)).toEqual(["act_edge", "act_new"]);
  });
});
