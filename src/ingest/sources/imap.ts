import type { Db } from "../../db";
import type { Env } from "../../env";
import type { Clock } from "../../lib/clock";
import { log } from "../../lib/log";
import { ImapSession, type ImapTls } from "./imap-client";
import {
  claimPollerAttempt,
  ensurePollerRow,
  type PollerState,
  readPollerRow,
  setPollerState,
} from "./poller-queries";

/**
 * Mailbox poller (SPEC "Ingest paths" 1). The Worker cron fires every minute; this decides whether
 * a poll is due, reads messages with UIDs above the stored cursor, hands each to `ingest`, and keeps
 * the cursor, UIDVALIDITY, heartbeat and backoff in D1 `poller_state` (row id 'imap').
 */
export interface ImapConfig {
  host: string;
  port: number;
  tls: ImapTls;
  user: string;
  password: string;
  mailbox: string;
}

export interface PollInput {
  config: ImapConfig;
  db: Db;
  clock: Clock;
  ingest: (raw: Uint8Array, meta: { uid: number }) => Promise<unknown>;
  pollIntervalSeconds: number;
  /** At most this many messages per poll (the rest wait for the next poll). Default 50. */
  maxMessages?: number;
  connectTimeoutMs?: number;
  commandTimeoutMs?: number;
}

export interface PollResult {
  status: "polled" | "skipped" | "failed";
  fetched: number;
  lastUid: number;
  error?: string;
  reason?: "interval" | "backoff" | "busy";
}

export type { PollerState };
export const BACKOFF_BASE_SECONDS = 5;
export const BACKOFF_MAX_SECONDS = 300;

/** Delay after the n-th consecutive failure: 5, 10, 20, ... capped at 300 seconds. */
export function backoffSeconds(failures: number): number {
  const n = Math.max(1, failures);
  return Math.min(BACKOFF_MAX_SECONDS, BACKOFF_BASE_SECONDS * 2 ** Math.min(n - 1, 16));
}

/** The IMAP settings of the Worker, or null when no mailbox is configured (IMAP_HOST empty). */
export function imapConfigFromEnv(env: Env): ImapConfig | null {
  const host = (env.IMAP_HOST ?? "").trim();
  if (!host) return null;
  const raw = (env.IMAP_TLS ?? "").trim().toLowerCase();
  const tls: ImapTls =
    raw === "starttls"
      ? "starttls"
      : raw === "plain" || raw === "none" || raw === "off"
        ? "plain"
        : "implicit";
  const port = Number.parseInt(env.IMAP_PORT ?? "", 10);
  return {
    host,
    port: Number.isInteger(port) && port > 0 && port < 65536 ? port : tls === "implicit" ? 993 : 143,
    tls,
    user: env.IMAP_USER ?? "",
    password: env.IMAP_PASSWORD ?? "",
    mailbox: (env.IMAP_MAILBOX ?? "").trim() || "INBOX",
  };
}

/** POLL_INTERVAL_SECONDS, default 60. */
export function pollIntervalFromEnv(env: Env): number {
  const n = Number(env.POLL_INTERVAL_SECONDS);
  return Number.isFinite(n) && n > 0 ? n : 60;
}

export async function readPollerState(db: Db): Promise<PollerState | null> {
  return readPollerRow(db);
}

function ms(iso: string | null): number | null {
  const t = iso ? Date.parse(iso) : Number.NaN;
  return Number.isNaN(t) ? null : t;
}

/** Cron jitter tolerance: a poll due within this much of the interval counts as due. */
function slackMs(intervalSeconds: number): number {
  return Math.min(5_000, intervalSeconds * 100);
}

export async function pollMailbox(deps: PollInput): Promise<PollResult> {
  const { db, clock, config } = deps;
  await ensurePollerRow(db);
  const state = (await readPollerState(db))!;
  const now = clock();
  const skipped = (reason: PollResult["reason"]): PollResult => ({
    status: "skipped",
    fetched: 0,
    lastUid: state.last_uid,
    reason,
  });

  if (state.consecutive_failures > 0) {
    const next = ms(state.next_attempt_at);
    if (next !== null && now.getTime() < next) return skipped("backoff");
  } else {
    const last = ms(state.last_attempt_at);
    const due = deps.pollIntervalSeconds * 1000 - slackMs(deps.pollIntervalSeconds);
    if (last !== null && now.getTime() - last < due) return skipped("interval");
  }

  // Claim this attempt: if another invocation claimed it since our read, let that one poll.
  const claim = await claimPollerAttempt(db, now.toISOString(), state.last_attempt_at);
  if (!claim.meta.changes) return skipped("busy");

  let lastUid = state.last_uid;
  let fetched = 0;
  let ingestError: string | undefined;
  let session: ImapSession | undefined;
  try {
    session = await ImapSession.open({
      host: config.host,
      port: config.port,
      tls: config.tls,
      connectTimeoutMs: deps.connectTimeoutMs,
      commandTimeoutMs: deps.commandTimeoutMs,
    });
    await session.login(config.user, config.password);
    const { uidValidity } = await session.select(config.mailbox);
    if (state.uid_validity !== null && state.uid_validity !== uidValidity) {
      log("warn", "imap.uidvalidity_changed", { from: state.uid_validity, to: uidValidity });
      lastUid = 0;
    }
    if (state.uid_validity !== uidValidity) {
      await setPollerState(db, { uid_validity: uidValidity, last_uid: lastUid });
    }

    const uids = (await session.searchUidsFrom(lastUid + 1)).filter((u) => u > lastUid);
    for (const uid of uids.slice(0, deps.maxMessages ?? 50)) {
      const raw = await session.fetchRaw(uid);
      if (raw) {
        try {
          await deps.ingest(raw, { uid });
        } catch (err) {
          // Not advanced: this message is retried on the next poll.
          ingestError = `ingest of UID ${uid} failed: ${errorText(err)}`;
          log("error", "imap.ingest_failed", { uid, error: errorText(err) });
          break;
        }
        fetched++;
      }
      lastUid = uid;
      await setPollerState(db, { last_uid: uid });
    }
    await session.logout();

    await setPollerState(db, {
      last_poll_at: clock().toISOString(),
      consecutive_failures: 0,
      next_attempt_at: null,
      last_error: ingestError ?? null,
    });
    log("info", "imap.polled", { fetched, lastUid, mailbox: config.mailbox });
    return { status: "polled", fetched, lastUid, ...(ingestError ? { error: ingestError } : {}) };
  } catch (err) {
    session?.close();
    const failures = state.consecutive_failures + 1;
    const next = new Date(now.getTime() + backoffSeconds(failures) * 1000);
    const error = errorText(err);
    await setPollerState(db, {
      consecutive_failures: failures,
      next_attempt_at: next.toISOString(),
      last_error: error,
    });
    log("warn", "imap.poll_failed", { failures, retryAt: next.toISOString(), error });
    return { status: "failed", fetched, lastUid, error };
  }
}

function errorText(err: unknown): string {
  const text = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
  return text.slice(0, 500);
}
