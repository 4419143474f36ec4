import { env } from "cloudflare:test";
import { beforeEach, describe, expect, it } from "vitest";
import { brokenDb } from "../helpers/broken";
import { call } from "../helpers/http";
import { unlimitedDB } from "../helpers/limits";

const NOW = "2026-03-15T12:00:00.000Z";
const ago = (seconds: number) => new Date(Date.parse(NOW) - seconds * 1000).toISOString();
const IMAP = { IMAP_HOST: "127.0.0.1" };

async function setHeartbeat(iso: string | null) {
  await env.DB.prepare(
    "INSERT INTO poller_state (id, last_poll_at) VALUES ('imap', ?1) ON CONFLICT (id) DO UPDATE SET last_poll_at = ?1",
  )
    .bind(iso)
    .run();
}
async function addTransaction(createdAt: string, key = createdAt) {
  await env.DB.prepare(
    "INSERT INTO transactions (ForwardedTo, DateFileName, TransactionHash, Amount, CreatedAt) VALUES ('me@x', ?1, ?1, 1, ?2)",
  )
    .bind(key, createdAt)
    .run();
}
async function addFailure(createdAt: string, status = "quarantined") {
  await env.DB.prepare(
    "INSERT INTO parse_failures (id, status, failure_stage, created_at, updated_at) VALUES (?1, ?2, 'no_parser_match', ?3, ?3)",
  )
    .bind(`pf_${crypto.randomUUID()}`, status, createdAt)
    .run();
}
const health = (extra: Record<string, string> = {}) => call("/api/v1/health", { now: NOW, env: extra });

describe("GET /api/v1/health", () => {
  beforeEach(async () => {
    await env.DB.batch([
      env.DB.prepare("DELETE FROM poller_state"),
      env.DB.prepare("DELETE FROM transactions"),
      env.DB.prepare("DELETE FROM parse_failures"),
      env.DB.prepare("DELETE FROM kv_state"),
    ]);
  });

  it("has every SPEC field (plus the reference extras) and needs no credentials", async () => {
    const res = await health();
    expect(res.status).toBe(200);
    for (const k of [
      "status",
      "version",
      "backend",
      "imap_last_poll",
      "imap_poll_age_seconds",
      "last_transaction_at",
      "last_transaction_age_seconds",
      "parse_failures_7d",
      "ai_categorization_status",
      "checked_at",
      "auth_required",
      "quiet_institutions",
      "ai_last_error_reason",
      "reasons",
    ]) {
      expect(res.body, k).toHaveProperty(k);
    }
    expect(res.body.checked_at).toBe(NOW);
    expect(res.body.backend).toBe("d1");
    expect(res.body.status).toBe("ok");
    expect(res.body.parse_failures_7d).toBe(0);
  });

  it("ok: no poller configured, nothing else wrong", async () => {
    await addTransaction(ago(3600));
    const res = await health();
    expect(res.body).toMatchObject({ status: "ok", last_transaction_age_seconds: 3600, reasons: [] });
  });

  it("ok: heartbeat younger than 5 minutes", async () => {
    await setHeartbeat(ago(299));
    const res = await health(IMAP);
    expect(res.body).toMatchObject({ status: "ok", imap_last_poll: ago(299), imap_poll_age_seconds: 299 });
  });

  it("degraded: heartbeat 5 to 30 minutes old", async () => {
    await setHeartbeat(ago(300));
    expect((await health(IMAP)).body.status).toBe("degraded");
    await setHeartbeat(ago(1800));
    const res = await health(IMAP);
    expect(res.body.status).toBe("degraded");
    expect(res.body.reasons[0]).toMatch(/5 minutes/);
  });

  it("stale: heartbeat older than 30 minutes", async () => {
    await setHeartbeat(ago(1801));
    const res = await health(IMAP);
    expect(res.body.status).toBe("stale");
    expect(res.body.reasons[0]).toMatch(/30 minutes/);
  });

  it("an old heartbeat does not matter when no poller is configured", async () => {
    await setHeartbeat(ago(99_999));
    expect((await health()).body.status).toBe("ok");
  });

  it("degraded: a configured poller that never polled", async () => {
    expect((await health(IMAP)).body.status).toBe("degraded");
  });

  it("degraded: parse failures in the last 7 days (older or resolved ones do not count)", async () => {
    await addFailure(ago(8 * 86400));
    await addFailure(ago(3600), "resolved");
    expect((await health()).body).toMatchObject({ status: "ok", parse_failures_7d: 0 });
    await addFailure(ago(6 * 86400));
    expect((await health()).body).toMatchObject({ status: "degraded", parse_failures_7d: 1 });
  });

  it("degraded: AI categorization failing", async () => {
    await env.DB.prepare("INSERT INTO kv_state (key, value, updated_at) VALUES ('ai_categorization', ?, ?)")
      .bind(JSON.stringify({ status: "degraded", reason: "provider 500 x3" }), NOW)
      .run();
    const res = await health();
    expect(res.body).toMatchObject({
      status: "degraded",
      ai_categorization_status: "degraded",
      ai_last_error_reason: "provider 500 x3",
    });
  });

  it("stale: no transaction parsed in 14 days, and stale wins over quarantine-driven degraded", async () => {
    await addTransaction(ago(14 * 86400 + 1));
    await addFailure(ago(60));
    const res = await health();
    expect(res.body.status).toBe("stale");
    expect(res.body.reasons).toEqual(
      expect.arrayContaining([expect.stringMatching(/14 days/), expect.stringMatching(/quarantined/)]),
    );
  });

  it("uses the newest transaction", async () => {
    await addTransaction(ago(20 * 86400), "a");
    await addTransaction(ago(86400), "b");
    expect((await health()).body).toMatchObject({ status: "ok", last_transaction_age_seconds: 86400 });
  });

  it("never fails: a broken database yields nulls and 200", async () => {
    const res = await call("/api/v1/health", { now: NOW, env: { DB: brokenDb } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      status: "ok",
      imap_last_poll: null,
      last_transaction_at: null,
      parse_failures_7d: null,
    });
  });
});

describe("health with the quarantine table missing", () => {
  it("reports parse_failures_7d as null, not an error", async () => {
    await env.DB.prepare("DROP TABLE parse_failures").run();
    try {
      const res = await health();
      expect(res.status).toBe(200);
      expect(res.body.parse_failures_7d).toBeNull();
      expect(res.body.status).toBe("ok");
    } finally {
      const { applyD1Migrations } = await import("cloudflare:test");
      await env.DB.prepare("DELETE FROM d1_migrations")
        .run()
        .catch(() => undefined);
      await applyD1Migrations(unlimitedDB(), env.TEST_MIGRATIONS);
    }
  });
});

describe("health explains a late heartbeat with the poller's last error", () => {
  it("adds the failure count and error to the heartbeat reason without changing the status rules", async () => {
    await env.DB.batch([
      env.DB.prepare("DELETE FROM poller_state"),
      env.DB.prepare("DELETE FROM transactions"),
    ]);
    await env.DB.prepare(
      "INSERT INTO poller_state (id, last_poll_at, consecutive_failures, last_error) VALUES ('imap', ?, 3, 'ImapAuthError: LOGIN failed')",
    )
      .bind(ago(600))
      .run();
    const res = await health(IMAP);
    expect(res.body.status).toBe("degraded");
    expect(res.body.reasons[0]).toBe(
      "mailbox heartbeat older than 5 minutes (3 failed poll(s) in a row: ImapAuthError)",
    );
    await env.DB.prepare("UPDATE poller_state SET last_poll_at = ?").bind(ago(60)).run();
    expect((await health(IMAP)).body).toMatchObject({ status: "ok", reasons: [] });
  });
});

describe("auth_required", () => {
  it("is true on a non-loopback host until a password is set there, false on localhost", async () => {
    await env.DB.prepare("DELETE FROM auth_settings").run();
    expect((await call("/api/v1/health")).body.auth_required).toBe(false);
    expect((await call("/api/v1/health", { origin: "https://journal.example.com" })).body.auth_required).toBe(
      true,
    );
    const open = await call("/api/v1/health", {
      origin: "https://journal.example.com",
      env: { ALLOW_REMOTE_TOFU: "true" },
    });
    expect(open.body.auth_required).toBe(false);
  });
});
