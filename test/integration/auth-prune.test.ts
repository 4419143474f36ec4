import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { getDb } from "../../src/db";
import { loginThrottle, sessions } from "../../src/db/schema";
import { pruneAuthState } from "../../src/domains/auth/prune";
import { fixedClock } from "../../src/lib/clock";

describe("daily auth housekeeping", () => {
  it("drops long-ended and long-expired sessions and idle address buckets; keeps live ones, locks and the global bucket", async () => {
    const db = getDb(env.DB);
    const s = (id: string, ended: string | null, expires: string) => ({
      id,
      created_at: "2026-01-01T00:00:00Z",
      ended_at: ended,
      expires_at: expires,
    });
    await db
      .insert(sessions)
      .values([
        s("ses_old_ended", "2026-09-01T00:00:00Z", "2026-10-01T00:00:00Z"),
        s("ses_recent_ended", "2026-11-10T00:00:00Z", "2026-12-01T00:00:00Z"),
        s("ses_long_expired", null, "2026-09-15T00:00:00Z"),
        s("ses_live", null, "2026-12-20T00:00:00Z"),
      ]);
    const b = (key: string, updated: string, locked: string | null) => ({
      key,
      failures: 3,
      locked_until: locked,
      updated_at: updated,
    });
    await db
      .insert(loginThrottle)
      .values([
        b("global", "2026-01-01T00:00:00Z", null),
        b("ip:192.0.2.1", "2026-11-01T00:00:00Z", null),
        b("ip:192.0.2.2", "2026-11-01T00:00:00Z", "2026-11-23T00:00:00Z"),
        b("ip:192.0.2.3", "2026-11-21T23:00:00Z", null),
      ]);
    await pruneAuthState(env, fixedClock("2026-11-22T12:00:00Z"));
    const left = (await db.select({ id: sessions.id }).from(sessions)).map((r) => r.id).sort();
    expect(left).toEqual(["ses_live", "ses_recent_ended"]);
    const buckets = (await db.select({ k: loginThrottle.key }).from(loginThrottle)).map((r) => r.k).sort();
    expect(buckets).toEqual(["global", "ip:192.0.2.2", "ip:192.0.2.3"]);
  });
});
