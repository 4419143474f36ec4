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
  /** At most this many messages per step (default STEP_MESSAGES). */
  maxMessages?: number;
  /** No message is started after this much wall time of a step (default STEP_WALL_MS). */
  stepWallMs?: number;
  /** Called when messages above the cursor remain after a step: queue the next step at once. */
  chain?: (after: number) => Promise<unknown>;
  /** A chained step (not the cron's poll): no interval wait; a no-op once the cursor left `after`. */
  step?: { after: number };
  connectTimeoutMs?: number;
  commandTimeoutMs?: number;
}

export interface PollResult {
  status: "polled" | "skipped" | "failed";
  fetched: number;
  lastUid: number;
  /** Messages above the cursor left after this step (0 when the inbox is read). */
  remaining?: number;
  error?: string;
  reason?: "interval" | "backoff" | "busy" | "moved";
}

/**
 * One poll is one bounded step: a backlog (a new mailbox) is read in steps chained through the
 * queue, each within half a Paid invocation's 1,000 operations and 1,000 D1 queries. An alert
 * costs ~4 operations; the test holds it to OPS_PER_INGEST (room for an AI call or attachments).
 */
export const OPS_PER_INGEST = 12;
export const STEP_MESSAGES = 25;
export const STEP_WALL_MS = 20_000;
/** A claim's lease: a step that died leaves the mailbox to the next poll after this long. */
export const LEASE_MS = 120_000;
export const IMAP_STEP_KIND = "imap-step";

export type { PollerState };

/** Delay after the n-th consecutive failure: 5, 10, 20, ... capped at 300 seconds. */
export function backoffSeconds(failures: number): number {
  return Math.min(300, 5 * 2 ** Math.min(Math.max(1, failures) - 1, 16));
}

/** The IMAP settings of the Worker, or null when no mailbox is configured (IMAP_HOST empty). */
export function imapConfigFromEnv(env: Env): ImapConfig | null {
  const host = (env.IMAP_HOST ?? "").trim();
  if (!host) return null;
  const raw = (env.IMAP_TLS ?? "").trim().toLowerCase();
  const tls: ImapTls =
    raw === "starttls" ? "starttls" : ["plain", "none", "off"].includes(raw) ? "plain" : "implicit";
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

export const readPollerState = readPollerRow;

function ms(iso: string | null): number | null {
  const t = iso ? Date.parse(iso) : Number.NaN;
  return Number.isNaN(t) ? null : t;
}

export async function pollMailbox(deps: PollInput): Promise<PollResult> {
  const { db, clock, config } = deps;
  await ensurePollerRow(db);
  const state = (await readPollerRow(db))!;
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
  } else if (deps.step) {
    // A redelivered step, or another poll read on from the cursor (and chains its own next step).
    if (state.last_uid !== deps.step.after) return skipped("moved");
  } else {
    const last = ms(state.last_attempt_at);
    // Cron jitter: a poll due within a tenth of the interval (at most 5 s) counts as due.
    const due = deps.pollIntervalSeconds * 1000 - Math.min(5_000, deps.pollIntervalSeconds * 100);
    if (last !== null && now.getTime() - last < due) return skipped("interval");
  }

  // Claim this attempt: if another invocation claimed it since our read, let that one poll.
  const claim = now.toISOString();
  const lease = new Date(now.getTime() + LEASE_MS).toISOString();
  if (!(await claimPollerAttempt(db, claim, state.last_attempt_at, lease)).meta.changes)
    return skipped("busy");
  // Every write of this attempt holds only while the claim is ours (a lease outlived: stop).
  const set = (fields: Partial<PollerState>) => setPollerState(db, fields, claim);

  const started = Date.now();
  const wallMs = deps.stepWallMs ?? STEP_WALL_MS;
  let lastUid = state.last_uid;
  let fetched = 0;
  let remaining = 0;
  let ingestError: string | undefined;
  let session: ImapSession | undefined;
  try {
    const { connectTimeoutMs, commandTimeoutMs } = deps;
    session = await ImapSession.open({ ...config, connectTimeoutMs, commandTimeoutMs });
    await session.login(config.user, config.password);
    const { uidValidity } = await session.select(config.mailbox);
    if (state.uid_validity !== null && state.uid_validity !== uidValidity) {
      log("warn", "imap.uidvalidity_changed", { from: state.uid_validity, to: uidValidity });
      lastUid = 0;
    }
    if (state.uid_validity !== uidValidity) {
      await set({ uid_validity: uidValidity, last_uid: lastUid });
    }

    const uids = (await session.searchUidsFrom(lastUid + 1)).filter((u) => u > lastUid);
    remaining = uids.length;
    for (const uid of uids.slice(0, deps.maxMessages ?? STEP_MESSAGES)) {
      if (Date.now() - started >= wallMs) break;
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
      remaining--;
      // The cursor moves only while the claim is ours: another attempt took the mailbox, stop.
      if (!(await set({ last_uid: uid })).meta.changes) throw new LostClaim();
    }
    await session.logout();

    await set({
      last_poll_at: clock().toISOString(),
      consecutive_failures: 0,
      next_attempt_at: null,
      last_error: ingestError ?? null,
      backlog: remaining,
      lease_until: null,
    });
    log("info", "imap.polled", { fetched, lastUid, remaining, mailbox: config.mailbox });
    // More above the cursor: the next step now, not at the next interval (an ingest that failed
    // waits for the next poll instead).
    if (remaining > 0 && !ingestError && deps.chain) {
      await deps.chain(lastUid).catch((err) => log("warn", "imap.chain_failed", { error: errorText(err) }));
    }
    return { status: "polled", fetched, lastUid, remaining, ...(ingestError ? { error: ingestError } : {}) };
  } catch (err) {
    session?.close();
    if (err instanceof LostClaim) {
      log("warn", "imap.claim_lost", { lastUid });
      return { status: "skipped", fetched, lastUid, reason: "busy" };
    }
    const failures = state.consecutive_failures + 1;
    const next = new Date(now.getTime() + backoffSeconds(failures) * 1000);
    const error = errorText(err);
    await set({
      consecutive_failures: failures,
      next_attempt_at: next.toISOString(),
      last_error: error,
      lease_until: null,
    });
    log("warn", "imap.poll_failed", { failures, retryAt: next.toISOString(), error });
    return { status: "failed", fetched, lastUid, error };
  }
}

/** Another attempt claimed the mailbox while this one ran (its lease ran out). */
class LostClaim extends Error {}

function errorText(err: unknown): string {
  const text = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
  return text.slice(0, 500);
}
