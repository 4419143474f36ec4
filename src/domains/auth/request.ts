/**
 * What the auth middleware reads from D1 for one request, in ONE round trip (a D1 batch is one
 * call): the bearer token's row, or the auth settings with the cookie's session rows; plus the
 * stored configuration when this isolate's few-seconds copy is stale (the route then reads it from
 * that copy). Token and session validity are never cached: a revoked token or an ended session
 * fails on its very next request. When the browser's batch fails, the R2 marker decides whether a
 * password exists (degraded); a token's failing batch is the caller's error to answer.
 */
import { type Db, getDb, type Named, namedBatch } from "../../db";
import type { Env } from "../../env";
import { settingsBatchRead } from "../config/service";
import { sameSecret, sha256Hex } from "./crypto";
import { activeTokenByHashQuery, authSettingsQuery, type TokenRow } from "./queries";
import { isWellFormedToken, parseSessionCookie, SESSION_ID_SHAPE } from "./rules";
import { type AuthState, degradedAuthState } from "./service";
import { findLiveSession, type LiveSession, liveSessionsQuery } from "./session-queries";
import { resolveSession } from "./sessions";

/** `reads` plus the stale settings read (if any) as one batch; the settings are kept for the route. */
async function batchWithSettings<S extends Parameters<typeof namedBatch>[1]>(env: Env, db: Db, reads: S) {
  const settings = settingsBatchRead({ env });
  const { config, ...results } = await namedBatch(db, { ...reads, config: settings?.query });
  if (settings) settings.keep(config as unknown as { data: string }[]);
  return results as unknown as Named<S>;
}

/** The live token a raw bearer value belongs to, or null (malformed values never reach D1). */
export async function requestToken(env: Env, raw: string): Promise<TokenRow | null> {
  if (!isWellFormedToken(raw)) return null;
  const hash = await sha256Hex(raw);
  const db = getDb(env.DB);
  const row = (await batchWithSettings(env, db, { token: activeTokenByHashQuery(db, hash) })).token[0];
  if (!row || !sameSecret(row.token_hash, hash)) return null;
  const { token_hash: _omit, ...token } = row;
  return token;
}

export interface BrowserAuth {
  auth: AuthState;
  /** The live session of the first cookie value that verifies, or null. */
  session: LiveSession | null;
}

/** Session rows fetched with the settings, unverified (a D1 query binds at most 100 values). */
const BATCH_IDS = 40;

/**
 * The session ids the cookie values name, the last ones first (a planted cookie tends to come
 * before the real one), at most BATCH_IDS: their rows are fetched before signatures are checked.
 */
function candidateIds(values: string[]): string[] {
  const ids = new Set<string>();
  for (const v of [...values].reverse()) {
    const nonce = parseSessionCookie(v)?.claims.nonce;
    if (nonce && SESSION_ID_SHAPE.test(nonce)) ids.add(nonce);
    if (ids.size >= BATCH_IDS) break;
  }
  return [...ids];
}

/** The auth settings and the cookie's live session (no cookie: the settings alone), in one batch. */
export async function requestBrowserAuth(env: Env, values: string[], now: Date): Promise<BrowserAuth> {
  const db = getDb(env.DB);
  const ids = candidateIds(values);
  const nowIso = now.toISOString();
  const read = await batchWithSettings(env, db, {
    settings: authSettingsQuery(db),
    sessions: ids.length > 0 ? liveSessionsQuery(db, ids, nowIso) : undefined,
  }).catch((err: unknown) => degradedAuthState({ env }, err));
  if ("degraded" in read) return { auth: read, session: null };
  const settings = read.settings[0] ?? null;
  const live = new Map((read.sessions ?? []).map((row) => [row.id, row]));
  const auth = { settings, passwordSet: Boolean(settings?.password_hash), degraded: false };
  if (ids.length === 0) return { auth, session: null };
  // Signature, expiry and epoch are checked against these settings; the row must be live now. A
  // signed value beyond the batch (past many planted ones) has its row read on its own.
  const fetched = new Set(ids);
  const session = await resolveSession(env, settings, values, now, async (id) =>
    fetched.has(id) ? (live.get(id) ?? null) : findLiveSession(db, id, nowIso),
  );
  return { auth, session };
}
