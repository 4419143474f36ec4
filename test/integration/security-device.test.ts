// Issue 26 finding 7: a lock never refuses a login that would succeed from a browser that has
// signed in before (its signed `app_device` cookie); per-address and global limits carry the rest.
// Issue 26 finding 10: every `app_session` value is read, however many a sibling planted first.
import { env } from "cloudflare:test";
import { beforeEach, describe, expect, it } from "vitest";
import { PASSWORD, resetState, sessionCookie, setPassword } from "../helpers/auth";
import { type CallResult, call, expectEnvelope } from "../helpers/http";

const NOW = "2030-01-01T00:00:00.000Z";

const loginFrom = (ip: string, password: string, cookie?: string) =>
  call("/api/v1/auth/login", {
    method: "POST",
    body: { password },
    now: NOW,
    headers: { "cf-connecting-ip": ip, ...(cookie ? { cookie } : {}) },
  });

/** The `app_device=...` pair a response set, and its attributes. */
function deviceCookie(res: CallResult): { pair: string; line: string } {
  const line = res.headers.getSetCookie().find((c) => c.startsWith("app_device="));
  if (!line) throw new Error(`no app_device cookie in ${res.status} ${res.text}`);
  return { pair: line.split(";")[0]!, line };
}

beforeEach(resetState);

describe("the device cookie (issue 26 finding 7)", () => {
  it("is set by a successful login: signed, HttpOnly, SameSite=Strict, sent only to /api/v1/auth", async () => {
    await setPassword(PASSWORD, NOW);
    const res = await loginFrom("192.0.2.10", PASSWORD);
    expect(res.status).toBe(200);
    const { pair, line } = deviceCookie(res);
    expect(pair).toMatch(/^app_device=d2\.\d+\.\d+\.dev_[0-9a-f]{32}\.[A-Za-z0-9_-]{43}$/);
    expect(line).toMatch(/HttpOnly/i);
    expect(line).toMatch(/SameSite=Strict/i);
    expect(line).toMatch(/Path=\/api\/v1\/auth(;|$)/);
    // The same browser keeps its device: a second login sends back the same value.
    expect(deviceCookie(await loginFrom("192.0.2.10", PASSWORD, pair)).pair).toBe(pair);
  });

  it("after 20 wrong guesses from 20 addresses the owner's browser still signs in from a new address", async () => {
    await setPassword(PASSWORD, NOW);
    const device = deviceCookie(await loginFrom("192.0.2.10", PASSWORD)).pair;
    for (let i = 0; i < 20; i++) {
      // The 20th starts the global lock (429); the ones before it are plain wrong passwords.
      expect((await loginFrom(`198.51.100.${i + 1}`, `guess ${i}`)).status).toBe(i < 19 ? 401 : 429);
    }
    // The global bucket is locked: a stranger's right password is refused...
    expectEnvelope(await loginFrom("203.0.113.50", PASSWORD), 429, "RATE_LIMITED");
    // ...and the owner's, from a new address with the device cookie, gets in.
    const owner = await loginFrom("203.0.113.99", PASSWORD, device);
    expect(owner.status).toBe(200);
    expect(
      (await call("/api/v1/config", { headers: { cookie: sessionCookie(owner) }, now: NOW })).status,
    ).toBe(200);
    // The owner's success does not lift the lock for strangers.
    expectEnvelope(await loginFrom("203.0.113.51", PASSWORD), 429, "RATE_LIMITED");
  });

  it("a forged or tampered device cookie counts for nothing: the global lock holds", async () => {
    await setPassword(PASSWORD, NOW);
    const device = deviceCookie(await loginFrom("192.0.2.10", PASSWORD)).pair;
    for (let i = 0; i < 20; i++) await loginFrom(`198.51.100.${i + 1}`, `guess ${i}`);
    const tampered = `${device.slice(0, -2)}${device.endsWith("AA") ? "BB" : "AA"}`;
    const forged = `app_device=d2.0.${2_000_000_000}.dev_${"0".repeat(32)}.${"A".repeat(43)}`;
    for (const cookie of [tampered, forged]) {
      expectEnvelope(await loginFrom("203.0.113.60", PASSWORD, cookie), 429, "RATE_LIMITED");
    }
  });

  /** Whether a wrong password sent with `cookie` was counted in a device's own bucket. */
  async function countedAsDevice(cookie: string, now = NOW): Promise<boolean> {
    await env.DB.prepare("DELETE FROM login_throttle").run();
    const res = await call("/api/v1/auth/login", {
      method: "POST",
      body: { password: "not the password" },
      now,
      headers: { "cf-connecting-ip": "203.0.113.70", cookie },
    });
    expect(res.status).toBe(401);
    const row = await env.DB.prepare(
      "SELECT count(*) AS n FROM login_throttle WHERE key LIKE 'device:%' AND failures > 0",
    ).first<{ n: number }>();
    return row!.n > 0;
  }

  it("sign-out-all and a password change end device cookies; the server ends an old one (issue 35)", async () => {
    const owner = await setPassword(PASSWORD, NOW);
    const before = deviceCookie(await loginFrom("192.0.2.10", PASSWORD)).pair;
    expect(await countedAsDevice(before)).toBe(true);
    const out = await call("/api/v1/auth/sign-out-all", {
      method: "POST",
      headers: { cookie: owner },
      now: NOW,
    });
    expect(out.status, out.text).toBe(200);
    // The device cookie of before sign-out-all no longer opens the device's own bucket.
    expect(await countedAsDevice(before)).toBe(false);

    const session = sessionCookie(await loginFrom("192.0.2.10", PASSWORD));
    const kept = deviceCookie(await loginFrom("192.0.2.10", PASSWORD)).pair;
    expect(await countedAsDevice(kept)).toBe(true);
    const changed = await call("/api/v1/auth/set-password", {
      method: "POST",
      body: { password: "a brand new passphrase", current_password: PASSWORD },
      headers: { cookie: session },
      now: NOW,
    });
    expect(changed.status, changed.text).toBe(200);
    expect(await countedAsDevice(kept)).toBe(false);
    // The browser that changed it gets a device cookie of the new epoch.
    const renewed = deviceCookie(changed).pair;
    expect(await countedAsDevice(renewed)).toBe(true);
    // Past its server-side life (400 days) a device cookie counts for nothing, whatever the browser kept.
    expect(await countedAsDevice(renewed, "2031-02-10T00:00:00.000Z")).toBe(false);
  });

  it("a device has limits of its own: wrong passwords with it lock that device, not strangers' paths", async () => {
    await setPassword(PASSWORD, NOW);
    const device = deviceCookie(await loginFrom("192.0.2.10", PASSWORD)).pair;
    for (let i = 0; i < 5; i++) await loginFrom("192.0.2.10", `typo ${i}`, device);
    expectEnvelope(await loginFrom("192.0.2.10", PASSWORD, device), 429, "RATE_LIMITED");
    const row = await env.DB.prepare("SELECT failures FROM login_throttle WHERE key LIKE 'device:%'").first();
    expect(row).toEqual({ failures: 5 });
    // Those guesses were not the whole internet's: the global bucket was not touched.
    const global = await env.DB.prepare("SELECT failures FROM login_throttle WHERE key = 'global'").first();
    expect(global?.failures ?? 0).toBe(0);
  });
});

describe("every app_session value is read (issue 26 finding 10)", () => {
  /** A well-formed cookie value a sibling subdomain could plant (its signature is not ours). */
  const planted = (i: number) =>
    `app_session=v1.0.${2_000_000_000 + i}.ses_${i.toString(16).padStart(32, "0")}.${"A".repeat(43)}`;

  for (const count of [8, 12, 60]) {
    it(`${count} planted values before the real one do not sign the owner out`, async () => {
      const real = await setPassword(PASSWORD, NOW);
      const cookie = [...Array.from({ length: count }, (_, i) => planted(i)), real].join("; ");
      const res = await call("/api/v1/config", { headers: { cookie }, now: NOW });
      expect(res.status).toBe(200);
      const who = await call("/api/v1/whoami", { headers: { cookie }, now: NOW });
      expect(who.body.kind).toBe("session");
    });
  }
});
