// Issue 11 item 3: sessions have a server-side identity; logout ends one, sign-out-all and a
// password change end all; Settings lists them; a planted cookie cannot shadow the real one.
import { env } from "cloudflare:test";
import { beforeEach, describe, expect, it } from "vitest";
import { countingD1 } from "../../bench/lib/d1-count";
import { expectEntryInBatch } from "../helpers/ledger-batch";
import {
  bearer,
  login,
  PASSWORD,
  resetState,
  seedToken,
  sessionCookie,
  setPassword,
  withCookie,
} from "../helpers/auth";
import { call, expectEnvelope } from "../helpers/http";

const config = (cookie: string) => call("/api/v1/config", { headers: withCookie(cookie) });
const sessions = (headers: Record<string, string>) => call("/api/v1/auth/sessions", { headers });

beforeEach(resetState);

describe("logout", () => {
  it("ends the session: the same cookie replayed after logout is refused", async () => {
    await setPassword();
    const a = sessionCookie(await login());
    const b = sessionCookie(await login());
    expect((await config(a)).status).toBe(200);
    const out = await call("/api/v1/auth/logout", { method: "POST", headers: withCookie(a) });
    expect(out.body).toEqual({ status: "logged_out" });
    // Today the cookie keeps working for 30 days after logout.
    expectEnvelope(await config(a), 401, "UNAUTHORIZED");
    expect((await config(b)).status).toBe(200);
  });

  it("a password change ends every other session; sign-out-all ends all", async () => {
    const first = await setPassword();
    const other = sessionCookie(await login());
    const change = await call("/api/v1/auth/set-password", {
      method: "POST",
      body: { password: "another password", current_password: PASSWORD },
      headers: withCookie(first),
    });
    const mine = sessionCookie(change);
    expectEnvelope(await config(other), 401, "UNAUTHORIZED");
    expectEnvelope(await config(first), 401, "UNAUTHORIZED");
    const listed = await sessions(withCookie(mine));
    expect(listed.body.sessions).toHaveLength(1);
    await call("/api/v1/auth/sign-out-all", { method: "POST", headers: withCookie(mine) });
    expectEnvelope(await config(mine), 401, "UNAUTHORIZED");
    const live = await env.DB.prepare("SELECT COUNT(*) AS n FROM sessions WHERE ended_at IS NULL").first();
    expect(live).toEqual({ n: 0 });
  });
});

describe("the sessions list", () => {
  it("lists active sessions with the current one marked, never a cookie or secret; one can be signed out", async () => {
    await setPassword();
    const ua = `Mozilla/5.0 ${"x".repeat(400)}`;
    const phone = sessionCookie(
      await call("/api/v1/auth/login", {
        method: "POST",
        body: { password: PASSWORD },
        headers: { "user-agent": ua, "cf-connecting-ip": "192.0.2.44" },
      }),
    );
    const laptop = sessionCookie(await login());
    const res = await sessions(withCookie(laptop));
    expect(res.status).toBe(200);
    const list = res.body.sessions as Array<Record<string, unknown>>;
    expect(list).toHaveLength(3);
    expect(list.filter((s) => s.current)).toHaveLength(1);
    const phoneRow = list.find((s) => s.ip === "192.0.2.44")!;
    expect(phoneRow.current).toBe(false);
    expect(String(phoneRow.user_agent).length).toBeLessThanOrEqual(200);
    expect(Object.keys(phoneRow).sort()).toEqual(
      ["created_at", "current", "expires_at", "id", "ip", "last_seen_at", "user_agent"].sort(),
    );
    const secret = String(
      (await env.DB.prepare("SELECT session_secret FROM auth_settings").first())!.session_secret,
    );
    for (const c of [phone, laptop]) expect(res.text).not.toContain(c.split("=")[1]!.split(".").pop());
    expect(res.text).not.toContain(secret);

    const counter = countingD1(env.DB);
    const del = await call(`/api/v1/auth/sessions/${phoneRow.id}`, {
      method: "DELETE",
      headers: withCookie(laptop),
      env: { DB: counter.db },
    });
    expect(del.body).toEqual({ id: phoneRow.id, status: "signed_out" });
    expectEntryInBatch(counter, "sessions");
    expectEnvelope(await config(phone), 401, "UNAUTHORIZED");
    expect((await config(laptop)).status).toBe(200);
    expectEnvelope(
      await call(`/api/v1/auth/sessions/${phoneRow.id}`, { method: "DELETE", headers: withCookie(laptop) }),
      404,
      "NOT_FOUND",
    );
    const entry = await env.DB.prepare("SELECT * FROM activity_log WHERE resource_id = ?")
      .bind(phoneRow.id)
      .first();
    expect(entry).toMatchObject({
      principal_kind: "session",
      operation_id: "endWebappSession",
      method: "DELETE",
    });
    expect(JSON.stringify(entry)).not.toContain(secret);
  });

  it("a read token may list but not sign out", async () => {
    await setPassword();
    const read = await seedToken("read");
    const list = await sessions(bearer(read.token));
    expect(list.body.sessions[0].current).toBe(false);
    expectEnvelope(
      await call(`/api/v1/auth/sessions/${list.body.sessions[0].id}`, {
        method: "DELETE",
        headers: bearer(read.token),
      }),
      403,
      "FORBIDDEN",
    );
  });

  it("stamps last_seen_at at most every 15 minutes", async () => {
    await setPassword(PASSWORD, "2030-01-01T00:00:00.000Z");
    const cookie = sessionCookie(await login(PASSWORD, "2030-01-01T00:00:00.000Z"));
    const seen = async () =>
      (await sessions({ ...withCookie(cookie) })).body.sessions.find((s: any) => s.current).last_seen_at;
    await call("/api/v1/config", { headers: withCookie(cookie), now: "2030-01-01T00:10:00.000Z" });
    expect(await seen()).toBe("2030-01-01T00:00:00.000Z");
    await call("/api/v1/config", { headers: withCookie(cookie), now: "2030-01-01T00:16:00.000Z" });
    expect(await seen()).toBe("2030-01-01T00:16:00.000Z");
  });
});

describe("two app_session cookies", () => {
  it("a planted cookie that comes first does not shadow the real one", async () => {
    await setPassword();
    const real = sessionCookie(await login());
    const planted = `app_session=v1.1.9999999999.ses_${"0".repeat(32)}.${"A".repeat(43)}`;
    // Today only the first value is checked, so the owner is logged out by the planted cookie.
    expect((await config(`${planted}; ${real}`)).status).toBe(200);
    // ...and logout with both ends the real session.
    await call("/api/v1/auth/logout", { method: "POST", headers: withCookie(`${planted}; ${real}`) });
    expectEnvelope(await config(real), 401, "UNAUTHORIZED");
  });
});
