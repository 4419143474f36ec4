/** Pure health rules: SPEC.md's state table. No I/O. */
type HealthStatus = "ok" | "degraded" | "stale";

const HEARTBEAT_DEGRADED_S = 5 * 60;
const HEARTBEAT_STALE_S = 30 * 60;
const NO_TRANSACTION_STALE_S = 14 * 24 * 3600;

interface HealthSignals {
  pollerConfigured: boolean;
  pollAgeSeconds: number | null;
  /** Consecutive failed polls and the last error (shown as the reason while polls fail). */
  pollFailures?: { count: number; error: string | null };
  lastTransactionAgeSeconds: number | null;
  parseFailures7d: number | null;
  aiStatus: "ok" | "degraded" | null;
}

/**
 * stale wins over degraded. A configured poller that has never succeeded counts as degraded;
 * a journal with no transaction yet is not stale (there is nothing to be late about).
 */
export function healthStatus(s: HealthSignals): { status: HealthStatus; reasons: string[] } {
  const stale: string[] = [];
  const degraded: string[] = [];
  if (s.pollerConfigured) {
    // Failed polls change no status (SPEC's table is about the heartbeat) but explain a late one.
    const f = s.pollFailures;
    const why =
      f && f.count > 0 ? ` (${f.count} failed poll(s) in a row: ${f.error ?? "unknown error"})` : "";
    if (s.pollAgeSeconds === null) degraded.push(`mailbox poller has not completed a poll yet${why}`);
    else if (s.pollAgeSeconds > HEARTBEAT_STALE_S)
      stale.push(`mailbox heartbeat older than 30 minutes${why}`);
    else if (s.pollAgeSeconds >= HEARTBEAT_DEGRADED_S)
      degraded.push(`mailbox heartbeat older than 5 minutes${why}`);
  }
  if (s.lastTransactionAgeSeconds !== null && s.lastTransactionAgeSeconds > NO_TRANSACTION_STALE_S) {
    stale.push("no transaction parsed in 14 days");
  }
  if (s.parseFailures7d !== null && s.parseFailures7d > 0) {
    degraded.push(`${s.parseFailures7d} email(s) quarantined in the last 7 days`);
  }
  if (s.aiStatus === "degraded")
    degraded.push("AI categorization is failing; rows fall back to Miscellaneous");
  if (stale.length > 0) return { status: "stale", reasons: [...stale, ...degraded] };
  if (degraded.length > 0) return { status: "degraded", reasons: degraded };
  return { status: "ok", reasons: [] };
}
