/**
 * The wrong-password throttle. An attempt is reserved atomically before the hash is
 * computed, so a burst cannot outrun the lock. Buckets: the client address (so an attacker locking
 * their own address leaves the owner's alone) plus a higher global one (capping guesses spread
 * over many addresses); a signed-in caller re-entering the current password counts in a bucket of
 * its own, so a login lockout never stops a valid session or token.
 */
import { getDb } from "../../db";
import type { ServiceCtx } from "../../lib/context";
import { ApiError } from "../../lib/errors";
import type { Statement } from "../../db/lists";
import type { Db } from "../../db";
import type { SQL } from "drizzle-orm";
import { clearBucketsQuery, readBuckets, reserveAttempt, reserveAttemptQueries } from "./session-queries";
import {
  FREE_FAILURES,
  GLOBAL_BUCKET,
  GLOBAL_FREE_FAILURES,
  LOCKOUT_BASE_S,
  LOCKOUT_MAX_S,
  retryAfterSeconds,
} from "./rules";

export const LIMITS = {
  freeFailures: FREE_FAILURES,
  globalFreeFailures: GLOBAL_FREE_FAILURES,
  globalKey: GLOBAL_BUCKET,
  baseS: LOCKOUT_BASE_S,
  maxS: LOCKOUT_MAX_S,
};

function rateLimited(seconds: number): ApiError {
  return new ApiError(429, "Too many wrong passwords: try again later", "RATE_LIMITED", {
    retry_after_seconds: seconds,
  });
}

const longestWait = (rows: { locked_until: string | null }[], now: Date) =>
  Math.max(0, ...rows.map((r) => retryAfterSeconds(r.locked_until, now)));

type Reserved = Awaited<ReturnType<typeof reserveAttempt>>;

/**
 * The reservation as statements for the caller's own read batch (so it costs no trip of its own),
 * writing only when `onlyIf` holds; its last statement's rows are `throttled`'s `reserved`.
 */
export const reserveInBatch = (ctx: ServiceCtx, db: Db, buckets: string[], onlyIf?: SQL) =>
  reserveAttemptQueries(db, buckets, ctx.clock().toISOString(), LIMITS, onlyIf);

/**
 * Runs `check` (the expensive hash comparison) only if an attempt could be reserved in every
 * bucket; 429 otherwise. A correct password clears the buckets; a wrong one stays counted and
 * answers 429 when this attempt started a lock, else `onWrong`. `reserved`: the rows of a
 * reservation the caller already committed (`reserveInBatch`), else it is made here. Returns the
 * results of `onRight`'s statements.
 */
export async function throttled(
  ctx: ServiceCtx,
  {
    buckets,
    check,
    onWrong,
    onRight = [],
    reserved: already,
  }: {
    buckets: string[];
    check: () => Promise<boolean>;
    onWrong: ApiError;
    /**
     * Writes of a right password, run in the same batch as the buckets' reset; a function builds
     * them only once the password was right (e.g. a new password's hash).
     */
    onRight?: Statement[] | (() => Promise<Statement[]>);
    reserved?: Reserved;
  },
): Promise<unknown[]> {
  const db = getDb(ctx.env.DB);
  const now = ctx.clock();
  const nowIso = now.toISOString();
  const reserved = already ?? (await reserveAttempt(db, buckets, nowIso, LIMITS));
  if (reserved.length === 0) {
    throw rateLimited(Math.max(1, longestWait(await readBuckets(db, buckets), now)));
  }
  if (await check()) {
    const writes = typeof onRight === "function" ? await onRight() : onRight;
    const [, ...results] = await db.batch([clearBucketsQuery(db, buckets, nowIso), ...writes]);
    return results;
  }
  const wait = longestWait(reserved, now);
  if (wait > 0) throw rateLimited(wait);
  throw onWrong;
}

/** The buckets of a password check: a signed-in caller's own, or the client address + global. */
export function bucketsFor(
  principal: { kind: string; id: string | null } | null,
  clientKey: string,
): string[] {
  if (principal && (principal.kind === "session" || principal.kind === "token")) {
    return [`principal:${principal.kind}:${principal.id ?? "-"}`];
  }
  return [clientKey, GLOBAL_BUCKET];
}
