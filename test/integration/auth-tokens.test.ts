// API tokens: in-app issue/list/revoke, hash-only storage, immediate effect, last_used_at throttle.
import { env } from "cloudflare:test";
import { beforeEach, describe, expect, it } from "vitest";
import { countingD1 } from "../../bench/lib/d1-count";
import { sha256Hex } from "../../src/domains/auth/crypto";
import { bearer, resetState, seedToken, setPassword, withCookie } from "../helpers/auth";
import { call, expectEnvelope } from "../helpers/http";
import { expectEntryInBatch } from "../helpers/ledger-batch";

beforeEach(resetState);

describe("in-app token routes", () => {
  it("issues a token once, lists it without secrets, and revokes it permanently", async () => {
    const cookie = await setPassword();
    const [mint, revoke, again] = [countingD1(env.DB), countingD1(env.DB), countingD1(env.DB)];
    const issued = await call("/api/v1/auth/tokens", {
      method: "POST",
      body: { label: "agent", scope: "read" },
      headers: withCookie(cookie),
      env: { DB: mint.db },
    });
    expect(issued.status).toBe(201);
    expectEntryInBatch(mint, "api_tokens");
    const { token, id } = issued.body;
    expect(token).toMatch(/^fin_[A-Za-z0-9_-]{43}$/);
    expect(issued.body).toMatchObject({ label: "agent", scope: "read", last_used_at: null });

    const hash = await sha256Hex(token);
    const row = await env.DB.prepare("SELECT * FROM api_tokens WHERE id = ?").bind(id).first();
    expect(row!.token_hash).toBe(hash);
    expect(JSON.stringify(row)).not.toContain(token);

    const list = await call("/api/v1/auth/tokens", { headers: withCookie(cookie) });
    expect(list.body.tokens).toEqual([
      { id, label: "agent", scope: "read", created_at: issued.body.created_at, last_used_at: null },
    ]);
    expect(list.text).not.toContain(token);
    expect(list.text).not.toContain(hash);

    expect((await call("/api/v1/config", { headers: bearer(token) })).status).toBe(200);
    const del = await call(`/api/v1/auth/tokens/${id}`, {
      method: "DELETE",
      headers: withCookie(cookie),
      env: { DB: revoke.db },
    });
    expect(del.body).toEqual({ id, status: "revoked" });
    expectEntryInBatch(revoke, "api_tokens");
    expectEnvelope(await call("/api/v1/config", { headers: bearer(token) }), 401, "UNAUTHORIZED");
    expectEnvelope(
      await call(`/api/v1/auth/tokens/${id}`, {
        method: "DELETE",
        headers: withCookie(cookie),
        env: { DB: again.db },
      }),
      404,
      "NOT_FOUND",
    );
    // A second revoke changed nothing: its guarded batch wrote no entry either.
    const entries = await env.DB.prepare("SELECT summary FROM activity_log ORDER BY seq").all();
    expect(entries.results.map((r) => r.summary)).toEqual(['issued read token "agent"', "revoked token"]);
    expect((await call("/api/v1/auth/tokens", { headers: withCookie(cookie) })).body.tokens).toEqual([]);
  });

  it("defaults to read+write and validates the label", async () => {
    const res = await call("/api/v1/auth/tokens", { method: "POST", body: { label: "cli" } });
    expect(res.body.scope).toBe("read+write");
    expectEnvelope(
      await call("/api/v1/auth/tokens", { method: "POST", body: { label: "" } }),
      422,
      "VALIDATION_ERROR",
    );
    expectEnvelope(
      await call("/api/v1/auth/tokens", { method: "POST", body: { label: "x", scope: "admin" } }),
      422,
      "VALIDATION_ERROR",
    );
  });

  it("a token written straight to D1 (as the command line does) works on the next request", async () => {
    await setPassword();
    const raw = `fin_${"b".repeat(43)}`;
    await env.DB.prepare(
      "INSERT INTO api_tokens (id, label, scope, token_hash, created_at) VALUES ('tok_cli', 'cli', 'read', ?, ?)",
    )
      .bind(await sha256Hex(raw), new Date().toISOString())
      .run();
    const who = await call("/api/v1/whoami", { headers: bearer(raw) });
    expect(who.body).toMatchObject({ kind: "token", token_id: "tok_cli", label: "cli", scope: "read" });
    await env.DB.prepare("UPDATE api_tokens SET revoked_at = 'now' WHERE id = 'tok_cli'").run();
    expectEnvelope(await call("/api/v1/whoami", { headers: bearer(raw) }), 401, "UNAUTHORIZED");
  });

  it("accepts the scheme in any case", async () => {
    const { token } = await seedToken();
    expect((await call("/api/v1/whoami", { headers: { authorization: `bearer ${token}` } })).status).toBe(
      200,
    );
  });
});

describe("last_used_at", () => {
  it("is stamped on use at most once per 15 minutes", async () => {
    const { token, id } = await seedToken("read");
    const t0 = Date.parse("2030-05-01T10:00:00.000Z");
    const at = (min: number) => new Date(t0 + min * 60_000).toISOString();
    const lastUsed = async () =>
      (await env.DB.prepare("SELECT last_used_at FROM api_tokens WHERE id = ?")
        .bind(id)
        .first("last_used_at")) as string | null;

    await call("/api/v1/config", { headers: bearer(token), now: at(0) });
    expect(await lastUsed()).toBe(at(0));
    await call("/api/v1/config", { headers: bearer(token), now: at(14) });
    expect(await lastUsed()).toBe(at(0));
    const who = await call("/api/v1/whoami", { headers: bearer(token), now: at(15) });
    expect(await lastUsed()).toBe(at(15));
    expect(who.body).toMatchObject({ kind: "token", token_id: id, scope: "read" });
    expect([at(0), at(15)]).toContain(who.body.last_used_at);
  });

  it("is not stamped by a refused request", async () => {
    const { token, id } = await seedToken("read");
    await call("/api/v1/config", { method: "PUT", body: {}, headers: bearer(token) });
    const row = await env.DB.prepare("SELECT last_used_at FROM api_tokens WHERE id = ?").bind(id).first();
    expect(row!.last_used_at).toBeNull();
  });
});
