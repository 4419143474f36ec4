// POST /api/v1/activity/{id}/revert: restore, journal, stale guard, conflicts.
import { env } from "cloudflare:test";
import { beforeEach, describe, expect, it } from "vitest";
import { countingD1 } from "../../bench/lib/d1-count";
import { bearer, resetState, seedToken } from "../helpers/auth";
import { call, expectEnvelope } from "../helpers/http";
import { expectEntryInBatch } from "../helpers/ledger-batch";

const putMemo = async (memo: string) => {
  const res = await call("/api/v1/config", { method: "PUT", body: { insights_user_memo: memo } });
  expect(res.status, res.text).toBe(200);
};
const entries = async () => (await call("/api/v1/activity")).body.entries as any[];
const memo = async () => (await call("/api/v1/config")).body.insights_user_memo;
const revert = (id: string, query = "", headers: Record<string, string> = {}) =>
  call(`/api/v1/activity/${id}/revert${query}`, { method: "POST", headers });

beforeEach(resetState);

describe("revert", () => {
  it("restores the before image, journals itself and stamps the original", async () => {
    await putMemo("one");
    await putMemo("two");
    const [latest] = await entries();
    const counter = countingD1(env.DB);
    const res = await call(`/api/v1/activity/${latest.id}/revert`, {
      method: "POST",
      env: { DB: counter.db },
    });
    expect(res.status, res.text).toBe(200);
    expectEntryInBatch(counter, "app_config");
    expect(res.body).toEqual({
      reverted_entry_id: latest.id,
      summary: expect.stringContaining("revert of"),
      recreated_categories: [],
    });
    expect(await memo()).toBe("one");

    const [revertEntry, original] = await entries();
    expect(original.id).toBe(latest.id);
    expect(original.reverted_by).toBe(revertEntry.id);
    expect(original.reverted_at).toEqual(expect.any(String));
    expect(revertEntry).toMatchObject({
      operation_id: "revertActivity",
      method: "POST",
      path: `/api/v1/activity/${latest.id}/revert`,
      resource_id: "app",
      reversible: false,
      summary: `revert of ${latest.id}: restored config app`,
    });
    expect(revertEntry.before.insights_user_memo).toBe("two");
    expect(revertEntry.after.insights_user_memo).toBe("one");
  });

  it("409 CONFLICT when already reverted", async () => {
    await putMemo("one");
    const [e] = await entries();
    expect((await revert(e.id)).status).toBe(200);
    expectEnvelope(await revert(e.id), 409, "CONFLICT");
    expectEnvelope(await revert(e.id, "?force=true"), 409, "CONFLICT");
  });

  it("409 CONFLICT for an envelope-only entry, including the revert's own entry", async () => {
    await call("/api/v1/auth/tokens", { method: "POST", body: { label: "x" } });
    const [issue] = await entries();
    expectEnvelope(await revert(issue.id), 409, "CONFLICT");
    await putMemo("one");
    const [put] = await entries();
    await revert(put.id);
    const [own] = await entries();
    expect(own.operation_id).toBe("revertActivity");
    expectEnvelope(await revert(own.id), 409, "CONFLICT");
  });

  it("404 for an unknown entry", async () => {
    expectEnvelope(await revert("act_nope"), 404, "NOT_FOUND");
  });

  it("409 stale_revert when the resource changed since, unless force=true", async () => {
    await putMemo("one");
    const [first] = await entries();
    await putMemo("two");
    const stale = expectEnvelope(await revert(first.id), 409, "stale_revert");
    expect(stale.details).toMatchObject({
      entry_id: first.id,
      resource_id: "app",
      changed_fields: ["insights_user_memo"],
    });
    expect(await memo()).toBe("two");
    expectEnvelope(await revert(first.id, "?force=false"), 409, "stale_revert");
    const forced = await revert(first.id, "?force=true");
    expect(forced.status, forced.text).toBe(200);
    expect(await memo()).toBeNull();
  });

  it("needs write scope", async () => {
    await putMemo("one");
    const [e] = await entries();
    const { token } = await seedToken("read");
    expectEnvelope(await revert(e.id, "", bearer(token)), 403, "FORBIDDEN");
    const write = await seedToken("read+write");
    expect((await revert(e.id, "", bearer(write.token))).status).toBe(200);
  });

  it("reads a kind's before image in its reverter's shape: out of shape is a 409 that writes nothing", async () => {
    await putMemo("one");
    const [e] = await entries();
    const setBefore = (text: string) =>
      env.DB.prepare("UPDATE activity_log SET before_json = ? WHERE id = ?").bind(text, e.id).run();
    await setBefore('{"insights_user_memo":5}');
    const bad = await revert(e.id);
    expectEnvelope(bad, 409, "CONFLICT");
    expect(bad.body.details.problem).toMatch(/before_json \(config\).*insights_user_memo/);
    expect(await memo()).toBe("one");
    const row = await env.DB.prepare("SELECT reverted_at FROM activity_log WHERE id = ?").bind(e.id).first();
    expect(row!.reverted_at).toBeNull();
    // The list reads every image as a plain object, whatever its kind's shape.
    expect((await entries())[0].before).toEqual({ insights_user_memo: 5 });
    // Text as older code stored it (any spacing, keys the shape does not know) reads and restores.
    await setBefore('{ "insights_user_memo" : "zero", "retired_setting": true }');
    expect((await revert(e.id)).status).toBe(200);
    expect(await memo()).toBe("zero");
  });

  it("an entry of a kind no reverter knows (an old ledger) still lists, and is not reversible", async () => {
    await env.DB.prepare(
      `INSERT INTO activity_log (id, ts, operation_id, resource_kind, resource_id, before_json, after_json, reversible)
       VALUES ('act_old', '2030-01-01T00:00:00.000Z', 'retiredOp', 'retired-kind', 'r1', '{"a":[1,2]}', 'null', 1)`,
    ).run();
    const [old] = await entries();
    expect(old).toMatchObject({ id: "act_old", before: { a: [1, 2] }, after: null, reversible: true });
    expectEnvelope(await revert("act_old"), 409, "CONFLICT");
  });

  it("a restore that fails leaves the entry revertible", async () => {
    await putMemo("one");
    const [e] = await entries();
    await env.DB.prepare("ALTER TABLE app_config RENAME TO app_config_away").run();
    try {
      const res = await revert(e.id, "?force=true");
      expect(res.status).toBe(500);
    } finally {
      await env.DB.prepare("ALTER TABLE app_config_away RENAME TO app_config").run();
    }
    const row = await env.DB.prepare("SELECT reverted_at FROM activity_log WHERE id = ?").bind(e.id).first();
    expect(row!.reverted_at).toBeNull();
    expect((await revert(e.id)).status).toBe(200);
    expect(await memo()).toBeNull();
  });
});
