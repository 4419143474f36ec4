// Issue 11 item 2: the wrong-password lockout holds under a burst, per client address and globally,
// and never touches a valid session or token.
import { env } from "cloudflare:test";
import { beforeEach, describe, expect, it } from "vitest";
import {
  bearer,
  PASSWORD,
  resetState,
  seedToken,
  sessionCookie,
  setPassword,
  withCookie,
} from "../helpers/auth";
import { call, expectEnvelope } from "../helpers/http";

const NOW = "2030-01-01T00:00:00.000Z";
const loginFrom = (ip: string | null, password: string, now = NOW) =>
  call("/api/v1/auth/login", {
    method: "POST",
    body: { password },
    now,
    headers: ip ? { "cf-connecting-ip": ip } : {},
  });

beforeEach(resetState);

describe("a burst of wrong passwords", () => {
  it("hashes at most 5 guesses per window: the right password inside the burst is refused", async () => {
    await setPassword();
    const guesses = Array.from({ length: 40 }, (_, i) => (i === 20 || i === 39 ? PASSWORD : `wrong ${i}`));
    const results = await Promise.all(guesses.map((p) => loginFrom("203.0.113.7", p)));
    const statuses = results.map((r) => r.status);
    // Today every attempt is checked, so the right password in the burst logs in (200).
    expect(statuses[20]).toBe(429);
    expect(statuses[39]).toBe(429);
    expect(statuses.filter((s) => s === 200)).toEqual([]);
    expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(4);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(36);
    for (const r of results.filter((r) => r.status === 429)) {
      expect(Number(r.headers.get("retry-after"))).toBeGreaterThan(0);
    }
    // Only five attempts were counted for that address: the rest never reached the hash.
    const row = await env.DB.prepare(
      "SELECT failures FROM login_throttle WHERE key = 'ip:203.0.113.7'",
    ).first();
    expect(row).toEqual({ failures: 5 });
  });

  it("after the window one more guess is allowed, and the right one resets the counters", async () => {
    await setPassword();
    await Promise.all(Array.from({ length: 10 }, () => loginFrom("203.0.113.7", "wrong wrong")));
    expectEnvelope(await loginFrom("203.0.113.7", PASSWORD, "2030-01-01T00:00:29.000Z"), 429, "RATE_LIMITED");
    expect((await loginFrom("203.0.113.7", PASSWORD, "2030-01-01T00:00:31.000Z")).status).toBe(200);
    expect((await loginFrom("203.0.113.7", "wrong again", "2030-01-01T00:00:32.000Z")).status).toBe(401);
  });
});

describe("whom the lock hurts", () => {
  it("an attacker locking their own address does not lock the owner's address", async () => {
    await setPassword();
    for (let i = 0; i < 8; i++) await loginFrom("198.51.100.66", `guess ${i}`);
    expectEnvelope(await loginFrom("198.51.100.66", PASSWORD), 429, "RATE_LIMITED");
    const owner = await loginFrom("192.0.2.10", PASSWORD);
    expect(owner.status).toBe(200);
  });

  it("IPv6 addresses of one /64 share a bucket", async () => {
    await setPassword();
    for (let i = 0; i < 5; i++) await loginFrom(`2001:db8:1:2::${i + 1}`, `guess ${i}`);
    expectEnvelope(await loginFrom("2001:db8:1:2:ffff::9", PASSWORD), 429, "RATE_LIMITED");
    expect((await loginFrom("2001:db8:1:3::1", PASSWORD)).status).toBe(200);
  });

  it("a global cap stops guesses spread over many addresses (20, then one per window)", async () => {
    await setPassword();
    for (let i = 0; i < 20; i++) await loginFrom(`198.51.100.${i + 1}`, `guess ${i}`);
    const owner = await loginFrom("192.0.2.10", PASSWORD);
    expectEnvelope(owner, 429, "RATE_LIMITED");
    expect(Number(owner.headers.get("retry-after"))).toBe(30);
  });

  it("a valid session or token keeps working, and may still change the password, while login is locked", async () => {
    const cookie = await setPassword(PASSWORD, NOW);
    const token = await seedToken();
    for (let i = 0; i < 25; i++) await loginFrom(`198.51.100.${i + 1}`, `guess ${i}`);
    expectEnvelope(await loginFrom("192.0.2.10", PASSWORD), 429, "RATE_LIMITED");
    expect((await call("/api/v1/config", { headers: withCookie(cookie), now: NOW })).status).toBe(200);
    expect((await call("/api/v1/config", { headers: bearer(token.token), now: NOW })).status).toBe(200);
    const change = await call("/api/v1/auth/set-password", {
      method: "POST",
      body: { password: "a brand new password", current_password: PASSWORD },
      headers: withCookie(cookie),
      now: NOW,
    });
    expect(change.status).toBe(200);
    expect(
      (await call("/api/v1/config", { headers: withCookie(sessionCookie(change)), now: NOW })).status,
    ).toBe(200);
  });
});
