// Issue 16: what every request pays before its route. The auth middleware reads the auth settings,
// the cookie's session or the bearer token, and (when this isolate's copy is stale) the
// configuration in ONE D1 round trip; validity is never cached (a revoked token or an ended session
// fails on its very next request, in the same isolate); a session's last use is written at most
// every 15 minutes and off the response path.
import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { beforeEach, describe, expect, it } from "vitest";
import { createApp } from "../../src/app";
import type { Env } from "../../src/env";
import { fixedClock } from "../../src/lib/clock";
import {
  bearer,
  login,
  resetState,
  seedToken,
  sessionCookie,
  setPassword,
  withCookie,
} from "../helpers/auth";
import { call } from "../helpers/http";
import { type CountingHooks, countingD1, type Trip } from "../../bench/lib/d1-count";

/** The real D1 binding, recording every round trip (bench/lib/d1-count.ts); `hold` may delay a statement. */
const recording = (real: D1Database, hold?: CountingHooks["hold"]) => countingD1(real, { hold });

const AUTH_READ = /^select .* from "(auth_settings|sessions|api_tokens|app_config)"/i;
/** The round trips that read auth or configuration tables. */
const authReads = (trips: Trip[]) => trips.filter((t) => t.sql.some((s) => AUTH_READ.test(s)));
const tables = (t: Trip) => t.sql.map((s) => /from "(\w+)"/i.exec(s)?.[1]).sort();

/** One request through the app with the given env object (shared across calls: one isolate's env). */
async function fetchWith(
  e: Env,
  path: string,
  opts: { headers?: Record<string, string>; now?: string; beforeWait?: () => void } = {},
) {
  const app = createApp(opts.now ? { clock: fixedClock(opts.now) } : {});
  const ctx = createExecutionContext();
  const res = await app.fetch(new Request(`http://localhost${path}`, { headers: opts.headers }), e, ctx);
  const body = await res.text();
  opts.beforeWait?.();
  await waitOnExecutionContext(ctx);
  return { status: res.status, body };
}

beforeEach(resetState);

describe("one round trip for auth", () => {
  it("a session GET reads settings, session and config in one batch; the route's config read is free", async () => {
    await setPassword();
    const cookie = sessionCookie(await login());
    const rec = recording(env.DB);
    const res = await call("/api/v1/config", { headers: withCookie(cookie), env: { DB: rec.db } });
    expect(res.status).toBe(200);
    const reads = authReads(rec.trips);
    expect(reads).toHaveLength(1);
    expect(reads[0]!.kind).toBe("batch");
    expect(tables(reads[0]!)).toEqual(["app_config", "auth_settings", "sessions"]);
    expect(rec.trips[0]).toBe(reads[0]);
  });

  it("a token GET reads the token and config in one batch", async () => {
    const { token } = await seedToken("read");
    const rec = recording(env.DB);
    const res = await call("/api/v1/whoami", { headers: bearer(token), env: { DB: rec.db } });
    expect(res.body).toMatchObject({ kind: "token" });
    // The middleware's one batch comes first (whoami itself then reads the token's last use fresh).
    expect(rec.trips[0]!.kind).toBe("batch");
    expect(tables(rec.trips[0]!)).toEqual(["api_tokens", "app_config"]);
  });

  it("without credentials (loopback, no password): one batch, and none at all for the config while it is fresh", async () => {
    const e = { ...env } as Env;
    const rec = recording(env.DB);
    e.DB = rec.db;
    expect((await fetchWith(e, "/api/v1/whoami")).status).toBe(200);
    expect(rec.trips.map(tables)).toEqual([["app_config", "auth_settings"]]);
    rec.trips.length = 0;
    // Same isolate, seconds later: the configuration comes from the isolate's copy.
    expect((await fetchWith(e, "/api/v1/whoami")).status).toBe(200);
    expect(rec.trips.map(tables)).toEqual([["auth_settings"]]);
    expect(rec.trips[0]!.kind).toBe("batch");
  });
});

describe("a write on a stale isolate", () => {
  it("the read-only check's settings ride in the auth batch (session, token, no credentials)", async () => {
    await setPassword();
    const cookie = sessionCookie(await login());
    const { token } = await seedToken("read+write");
    const write = (name: string, headers: Record<string, string>, rec: ReturnType<typeof recording>) =>
      call("/api/v1/categories", { method: "POST", body: { name }, headers, env: { DB: rec.db } });
    for (const [name, headers] of [
      ["Pottery", withCookie(cookie)],
      ["Ceramics", bearer(token)],
    ] as const) {
      const rec = recording(env.DB);
      const res = await write(name, headers, rec);
      expect(res.status, res.text).toBe(200);
      const reads = authReads(rec.trips);
      expect(reads).toHaveLength(1);
      expect(rec.trips[0]).toBe(reads[0]);
      expect(reads[0]!.kind).toBe("batch");
      expect(tables(reads[0]!)).toContain("app_config");
    }
    // Read-only on: still 405 before authentication (no credentials at all), from that one batch.
    const on = await call("/api/v1/config", {
      method: "PUT",
      body: { demo_mode: true },
      headers: withCookie(cookie),
    });
    expect(on.status).toBe(200);
    const rec = recording(env.DB);
    const refused = await write("Kilns", {}, rec);
    expect(refused.status).toBe(405);
    expect(rec.trips).toHaveLength(1);
    expect(tables(rec.trips[0]!)).toEqual(["app_config", "auth_settings"]);
    const off = await call("/api/v1/config", {
      method: "PUT",
      body: { demo_mode: false },
      headers: withCookie(cookie),
    });
    expect(off.status).toBe(200);
  });
});

describe("after this isolate writes the configuration", () => {
  it("the next write reads no configuration: the isolate's copy is what it wrote", async () => {
    const e = { ...env } as Env;
    const rec = recording(env.DB);
    e.DB = rec.db;
    const put = (memo: string) =>
      createApp().fetch(
        new Request("http://localhost/api/v1/config", {
          method: "PUT",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ insights_user_memo: memo }),
        }),
        e,
        createExecutionContext(),
      );
    expect((await put("first")).status).toBe(200);
    rec.trips.length = 0;
    const res = await put("second");
    expect(res.status).toBe(200);
    expect(((await res.json()) as { insights_user_memo: string }).insights_user_memo).toBe("second");
    // No round trip reads app_config (the demo-mode check and auth use the written copy).
    expect(rec.trips.filter((t) => t.sql.some((s) => /^select .* from "app_config"/i.test(s)))).toEqual([]);
    // And what it holds is what a read gives back.
    rec.trips.length = 0;
    const read = await fetchWith(e, "/api/v1/config");
    expect(JSON.parse(read.body).insights_user_memo).toBe("second");
  });
});

describe("validity is never cached", () => {
  it("a revoked token fails on its very next request in the same isolate", async () => {
    const e = { ...env } as Env;
    const { token, id } = await seedToken("read");
    expect((await fetchWith(e, "/api/v1/whoami", { headers: bearer(token) })).status).toBe(200);
    await env.DB.prepare("UPDATE api_tokens SET revoked_at = '2030-01-01' WHERE id = ?").bind(id).run();
    expect((await fetchWith(e, "/api/v1/whoami", { headers: bearer(token) })).status).toBe(401);
  });

  it("an ended session fails on its very next request in the same isolate", async () => {
    const e = { ...env } as Env;
    await setPassword();
    const cookie = sessionCookie(await login());
    expect((await fetchWith(e, "/api/v1/config", { headers: withCookie(cookie) })).status).toBe(200);
    await call("/api/v1/auth/logout", { method: "POST", headers: withCookie(cookie) });
    expect((await fetchWith(e, "/api/v1/config", { headers: withCookie(cookie) })).status).toBe(401);
  });
});

describe("the session's last use", () => {
  it("is written at most every 15 minutes, and the response does not wait for it", async () => {
    const T0 = "2031-02-01T00:00:00.000Z";
    await setPassword(undefined, T0);
    const cookie = sessionCookie(await login(undefined, T0));
    let release = () => {};
    const gate = new Promise<void>((r) => {
      release = r;
    });
    const rec = recording(env.DB, (sql) => (/^update "sessions"/i.test(sql) ? gate : undefined));
    const e = { ...env, DB: rec.db } as Env;
    const stamps = () => rec.trips.filter((t) => t.sql.some((s) => /^update "sessions"/i.test(s))).length;

    await fetchWith(e, "/api/v1/whoami", { headers: withCookie(cookie), now: "2031-02-01T00:14:00.000Z" });
    expect(stamps()).toBe(0);

    // Past the window: the stamp is issued, and held; the response is complete before it lands.
    let answeredWhileHeld = false;
    const res = await fetchWith(e, "/api/v1/whoami", {
      headers: withCookie(cookie),
      now: "2031-02-01T00:16:00.000Z",
      beforeWait: () => {
        answeredWhileHeld = stamps() === 1;
        release();
      },
    });
    expect(res.status).toBe(200);
    expect(answeredWhileHeld).toBe(true);
    const row = await env.DB.prepare("SELECT last_seen_at FROM sessions WHERE ended_at IS NULL").all();
    expect(row.results.map((r) => r.last_seen_at)).toContain("2031-02-01T00:16:00.000Z");
  });
});
