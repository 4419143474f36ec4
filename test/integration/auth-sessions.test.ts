// Browser sessions: set-password, login, logout, sign-out-all, cookie attributes, lockout.
import { env } from "cloudflare:test";
import { beforeEach, describe, expect, it } from "vitest";
import { PASSWORD, login, resetState, sessionCookie, setPassword, withCookie } from "../helpers/auth";
import { countingD1 } from "../../bench/lib/d1-count";
import { getDb } from "../../src/db";
import { authSettingsQuery, passwordIs, writePasswordQuery } from "../../src/domains/auth/queries";
import { endAllSessionsQuery, insertSessionIfQuery } from "../../src/domains/auth/session-queries";
import { brokenDb } from "../helpers/broken";
import { call, expectEnvelope } from "../helpers/http";

const config = (cookie?: string, extra: Record<string, string> = {}) =>
  call("/api/v1/config", { headers: { ...(cookie ? withCookie(cookie) : {}), ...extra } });

beforeEach(resetState);

describe("set-password", () => {
  it("ends trust on first use and logs the caller in", async () => {
    expect((await config()).status).toBe(200);
    const res = await call("/api/v1/auth/set-password", { method: "POST", body: { password: PASSWORD } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: "password_set" });
    const setCookie = res.headers.getSetCookie().find((c) => c.startsWith("app_session="))!;
    expect(setCookie).toMatch(/HttpOnly/);
    expect(setCookie).toMatch(/SameSite=Lax/);
    expect(setCookie).toMatch(/Path=\//);
    expect(setCookie).toMatch(/Max-Age=2592000/);
    expect(setCookie).not.toMatch(/Secure/);
    expectEnvelope(await config(), 401, "UNAUTHORIZED");
    expect((await config(sessionCookie(res))).status).toBe(200);
    expect((await call("/api/v1/health")).body.auth_required).toBe(true);
  });

  it("marks the cookie Secure behind https", async () => {
    const res = await call("/api/v1/auth/set-password", {
      method: "POST",
      body: { password: PASSWORD },
      headers: { "x-forwarded-proto": "https" },
    });
    expect(res.headers.getSetCookie().join()).toMatch(/Secure/);
  });

  it("stores only a salted PBKDF2 hash, never the password or the session secret in a response", async () => {
    const res = await call("/api/v1/auth/set-password", { method: "POST", body: { password: PASSWORD } });
    const row = await env.DB.prepare("SELECT * FROM auth_settings").first<Record<string, unknown>>();
    expect(row!.password_iterations).toBe(100000);
    expect(String(row!.password_hash)).toMatch(/^[0-9a-f]{64}$/);
    expect(String(row!.password_salt)).toMatch(/^[0-9a-f]{32}$/);
    expect(JSON.stringify(row)).not.toContain(PASSWORD);
    const secret = String(row!.session_secret);
    expect(secret.length).toBeGreaterThanOrEqual(43);
    const cookie = sessionCookie(res);
    for (const r of [
      res,
      await config(cookie),
      await call("/api/v1/whoami", { headers: withCookie(cookie) }),
    ]) {
      expect(r.text).not.toContain(secret);
      expect(r.headers.getSetCookie().join()).not.toContain(secret);
    }
  });

  it("rejects a short password (422) and needs the current one to change it", async () => {
    expectEnvelope(
      await call("/api/v1/auth/set-password", { method: "POST", body: { password: "short" } }),
      422,
      "VALIDATION_ERROR",
    );
    const first = await setPassword();
    const counter = countingD1(env.DB);
    const change = (body: unknown) =>
      call("/api/v1/auth/set-password", {
        method: "POST",
        body,
        headers: withCookie(first),
        env: { DB: counter.db },
      });
    expectEnvelope(await change({ password: "another password" }), 422, "VALIDATION_ERROR");
    expectEnvelope(
      await change({ password: "another password", current_password: "wrong one" }),
      403,
      "FORBIDDEN",
    );
    const failures = () => env.DB.prepare("SELECT failures FROM login_throttle").first("failures");
    expect(await failures()).toBe(1); // reserved before the hash: it stays counted
    counter.reset();
    const ok = await change({ password: "another password", current_password: PASSWORD });
    expect(ok.status).toBe(200);
    // auth; the row ensured and read with the attempt reserved; the throttle's reset with the
    // password write, the sessions ended, the caller's session and the new epoch (was 5)
    expect(counter.trips).toHaveLength(3);
    expect(counter.trips[1]!.sql.join(" ")).toMatch(/from "auth_settings".*update "login_throttle"/s);
    expect(counter.trips[2]!.sql.join(" ")).toMatch(
      /update "login_throttle".*update "auth_settings".*update "sessions".*insert into "sessions".*from "auth_settings"/s,
    );
    expect(await failures()).toBe(0);
    expectEnvelope(await config(first), 401, "UNAUTHORIZED");
    expect((await config(sessionCookie(ok))).status).toBe(200);
    expectEnvelope(await login(PASSWORD), 401, "UNAUTHORIZED");
    expect((await login("another password")).status).toBe(200);
  });

  it("writes the password, ends the sessions and reads the new epoch in one batch, guarded", async () => {
    const counter = countingD1(env.DB);
    const first = await call("/api/v1/auth/set-password", {
      method: "POST",
      body: { password: PASSWORD },
      headers: { "user-agent": "Sweep Browser", "cf-connecting-ip": "127.0.0.1" },
      env: { DB: counter.db },
    });
    expect(first.status).toBe(200);
    // auth, the row ensured and read, the write batch with the caller's session (was 8 round trips)
    expect(counter.trips).toHaveLength(3);
    expect(counter.trips[2]!.sql.join(" ")).toMatch(
      /update "auth_settings".*update "sessions".*insert into "sessions".*from "auth_settings"/s,
    );
    expect((await config(sessionCookie(first))).status).toBe(200);
    const row = await env.DB.prepare("SELECT * FROM sessions WHERE ended_at IS NULL").first<any>();
    expect(row.id).toMatch(/^ses_[0-9a-f]{32}$/);
    expect(Date.parse(row.expires_at) - Date.parse(row.created_at)).toBeGreaterThan(29 * 86_400_000);
    expect(row.last_seen_at).toBe(row.created_at);
    expect([row.user_agent, row.ip]).toEqual(["Sweep Browser", "127.0.0.1"]);
    // A write that lost the race (stale expected hash) ends no session: the guard names its own hash.
    const db = getDb(env.DB);
    const now = new Date().toISOString();
    const lost = { hash: "f".repeat(64), salt: "00", iterations: 1, nowIso: now, expectedHash: "stale" };
    const ghost = {
      id: "ses_ghost",
      created_at: now,
      last_seen_at: now,
      user_agent: null,
      ip: null,
      ended_at: null,
      expires_at: "2999-01-01T00:00:00.000Z",
    };
    const [res] = await db.batch([
      writePasswordQuery(db, lost),
      endAllSessionsQuery(db, now, { onlyIf: passwordIs(lost.hash) }),
      insertSessionIfQuery(db, ghost, passwordIs(lost.hash)),
      authSettingsQuery(db),
    ]);
    expect(res.meta.changes).toBe(0);
    expect(await env.DB.prepare("SELECT id FROM sessions WHERE id = 'ses_ghost'").first()).toBeNull();
    expect((await config(sessionCookie(first))).status).toBe(200);
    const live = await env.DB.prepare("SELECT COUNT(*) AS n FROM sessions WHERE ended_at IS NULL").first("n");
    expect(live).toBe(1);
  });

  it("cannot be called anonymously once a password is set", async () => {
    await setPassword();
    const res = await call("/api/v1/auth/set-password", {
      method: "POST",
      body: { password: "hijacked!", current_password: PASSWORD },
    });
    expectEnvelope(res, 401, "UNAUTHORIZED");
  });
});

describe("login, logout, sign-out-all", () => {
  it("login issues a working cookie; a wrong password is 401; no password yet is 409", async () => {
    expectEnvelope(await login(), 409, "CONFLICT");
    await setPassword();
    const sessionsNow = () => env.DB.prepare("SELECT COUNT(*) AS n FROM sessions").first("n");
    const before = await sessionsNow();
    expectEnvelope(await login("not the password"), 401, "UNAUTHORIZED");
    expect(await sessionsNow()).toBe(before); // a wrong password inserts no session row
    const counter = countingD1(env.DB);
    const ok = await call("/api/v1/auth/login", {
      method: "POST",
      body: { password: PASSWORD },
      env: { DB: counter.db },
    });
    expect(ok.body).toEqual({ status: "logged_in" });
    // the row, the attempt reserved, then the reset with the session row in one batch (was 4)
    expect(counter.trips).toHaveLength(3);
    expect(counter.trips[2]!.sql.join(" ")).toMatch(/update "login_throttle".*insert into "sessions"/s);
    const who = await call("/api/v1/whoami", { headers: withCookie(sessionCookie(ok)) });
    expect(who.body).toEqual({
      kind: "session",
      token_id: null,
      label: null,
      scope: null,
      last_used_at: null,
    });
  });

  it("logout clears the cookie", async () => {
    const cookie = await setPassword();
    const res = await call("/api/v1/auth/logout", { method: "POST", headers: withCookie(cookie) });
    expect(res.body).toEqual({ status: "logged_out" });
    expect(res.headers.getSetCookie().join()).toMatch(/app_session=;.*Max-Age=0/);
  });

  it("sign-out-all revokes every session, including ones not presented", async () => {
    const a = await setPassword();
    const b = sessionCookie(await login());
    const counter = countingD1(env.DB);
    const res = await call("/api/v1/auth/sign-out-all", {
      method: "POST",
      headers: withCookie(a),
      env: { DB: counter.db },
    });
    expect(res.body).toEqual({ status: "signed_out_all" });
    // auth, the row ensured and read, every session ended with the epoch bumped (was 5)
    expect(counter.trips).toHaveLength(3);
    expect(counter.trips[2]!.sql.join(" ")).toMatch(/update "sessions".*update "auth_settings"/s);
    expectEnvelope(await config(a), 401, "UNAUTHORIZED");
    expectEnvelope(await config(b), 401, "UNAUTHORIZED");
    expect((await config(sessionCookie(await login()))).status).toBe(200);
  });

  it("sign-out-all checks current_password when given", async () => {
    const a = await setPassword();
    const wrong = await call("/api/v1/auth/sign-out-all", {
      method: "POST",
      body: { current_password: "nope nope" },
      headers: withCookie(a),
    });
    expectEnvelope(wrong, 403, "FORBIDDEN");
    expect((await config(a)).status).toBe(200);
    // The wrong attempt was reserved (counted) before the hash, in the caller's own bucket.
    const buckets = () =>
      env.DB.prepare("SELECT key, failures FROM login_throttle ORDER BY key").all<{
        key: string;
        failures: number;
      }>();
    expect((await buckets()).results).toEqual([
      { key: expect.stringMatching(/^principal:session:/), failures: 1 },
    ]);
    const counter = countingD1(env.DB);
    const right = await call("/api/v1/auth/sign-out-all", {
      method: "POST",
      body: { current_password: PASSWORD },
      headers: withCookie(a),
      env: { DB: counter.db },
    });
    expect(right.body).toEqual({ status: "signed_out_all" });
    // auth; the row ensured and read with the attempt reserved; the reset with the revoke (was 4)
    expect(counter.trips).toHaveLength(3);
    expect(counter.trips[1]!.sql.join(" ")).toMatch(
      /insert into "auth_settings".*from "auth_settings".*insert into "login_throttle".*update "login_throttle"/s,
    );
    expect(counter.trips[2]!.sql.join(" ")).toMatch(
      /update "login_throttle".*update "sessions".*update "auth_settings"/s,
    );
    expect((await buckets()).results.map((r) => r.failures)).toEqual([0]);
    expectEnvelope(await config(a), 401, "UNAUTHORIZED");
  });

  it("sign-out-all with current_password before any password is set reserves nothing", async () => {
    const res = await call("/api/v1/auth/sign-out-all", {
      method: "POST",
      body: { current_password: "whatever1" },
    });
    expect(res.body).toEqual({ status: "signed_out_all" });
    expect(await env.DB.prepare("SELECT COUNT(*) AS n FROM login_throttle").first("n")).toBe(0);
    expect(await env.DB.prepare("SELECT session_epoch FROM auth_settings").first("session_epoch")).toBe(2);
  });

  it("a cookie signed with another secret is refused; SESSION_SECRET replaces the stored one", async () => {
    await setPassword();
    const withEnv = { SESSION_SECRET: "an operator supplied secret of enough length" };
    const res = await call("/api/v1/auth/login", {
      method: "POST",
      body: { password: PASSWORD },
      env: withEnv,
    });
    const cookie = sessionCookie(res);
    expect((await call("/api/v1/config", { headers: withCookie(cookie), env: withEnv })).status).toBe(200);
    expectEnvelope(await config(cookie), 401, "UNAUTHORIZED");
  });

  it("refuses malformed cookies", async () => {
    await setPassword();
    for (const value of ["", "garbage", "v1.1.9999999999.nonce.sig", "v2.1.2.abcdefgh.".padEnd(60, "A")]) {
      expectEnvelope(await config(`app_session=${value}`), 401, "UNAUTHORIZED");
    }
  });
});

describe("wrong-password lockout", () => {
  it("slows repeated wrong passwords with a growing 429 window and resets on success", async () => {
    await setPassword();
    const t0 = Date.parse("2030-01-01T00:00:00Z");
    const at = (s: number) => new Date(t0 + s * 1000).toISOString();
    for (let i = 0; i < 4; i++) expectEnvelope(await login("wrong password", at(i)), 401, "UNAUTHORIZED");
    const fifth = await login("wrong password", at(4));
    expectEnvelope(fifth, 429, "RATE_LIMITED");
    expect(fifth.headers.get("retry-after")).toBe("30");
    const locked = await login(PASSWORD, at(10));
    expectEnvelope(locked, 429, "RATE_LIMITED");
    expect(Number(locked.headers.get("retry-after"))).toBe(24);
    expectEnvelope(await login("wrong password", at(35)), 429, "RATE_LIMITED");
    expect((await login("wrong password", at(35))).headers.get("retry-after")).toBe("60");
    expect((await login(PASSWORD, at(96))).status).toBe(200);
    const rows = await env.DB.prepare("SELECT failures, locked_until FROM login_throttle").all();
    expect(rows.results).toEqual([
      { failures: 0, locked_until: null },
      { failures: 0, locked_until: null },
    ]);
  });
});

describe("while D1 is unavailable", () => {
  const down = { DB: brokenDb };

  it("trust on first use stays open when no password was ever set (config falls back to R2)", async () => {
    await env.FILES.delete("backups/auth/state.json");
    expect((await call("/api/v1/config", { env: down })).status).toBe(200);
  });

  it("fails closed once a password is set, even with a valid cookie, and for tokens", async () => {
    const cookie = await setPassword();
    expect(await env.FILES.get("backups/auth/state.json")).not.toBeNull();
    expectEnvelope(await call("/api/v1/config", { env: down }), 503, "SERVICE_UNAVAILABLE");
    expectEnvelope(
      await call("/api/v1/config", { env: down, headers: withCookie(cookie) }),
      503,
      "SERVICE_UNAVAILABLE",
    );
    const token = { authorization: `Bearer fin_${"A".repeat(43)}` };
    expectEnvelope(await call("/api/v1/config", { env: down, headers: token }), 503, "SERVICE_UNAVAILABLE");
    expect((await call("/api/v1/health", { env: down })).status).toBe(200);
  });
});
