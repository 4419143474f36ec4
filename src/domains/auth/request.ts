/**
 * What the auth middleware reads from D1 for one request, in ONE round trip (a D1 batch is one
 * call): the bearer token's row, or the auth settings with the cookie's session rows; plus the
 * stored configuration when this isolate's few-seconds copy is stale (the route then reads it from
 * that copy). Token and session validity are never cached: a revoked token or an ended session
 * fails on its very next request. When the batch fails, each read runs on its own as before (the
 * R2 marker decides whether a password exists while D1 is down).
 */
import type { BatchItem } from "drizzle-orm/batch";
import { getDb } from "../../db";
import type { Env } from "../../env";
import { log } from "../../lib/log";
import { settingsBatchRead } from "../config/service";
import { sameSecret, sha256Hex } from "./crypto";
import {
  activeTokenByHashQuery,
  type AuthSettingsRow,
  authSettingsQuery,
  type TokenAuthRow,
  type TokenRow,
} from "./queries";
import { isWellFormedToken, parseSessionCookie, SESSION_ID_SHAPE } from "./rules";
import { type AuthState, loadAuthState } from "./service";
import { findLiveSession, type LiveSession, liveSessionsQuery } from "./session-queries";
import { resolveSession } from "./sessions";
import { authenticateToken } from "./tokens";

type Item = BatchItem<"sqlite">;

/** Runs `items` plus the stale settings read (if any) as one batch; returns the items' results. */
async function batchWithSettings(env: Env, items: [Item, ...Item[]]): Promise<unknown[]> {
  const settings = settingsBatchRead(env);
  const all: [Item, ...Item[]] = settings ? [...items, settings.query] : items;
  const results = (await getDb(env.DB).batch(all)) as unknown[];
  if (settings) settings.keep(results[items.length] as { data: string }[]);
  return results.slice(0, items.length);
}

/** The live token a raw bearer value belongs to, or null (malformed values never reach D1). */
export async function requestToken(env: Env, raw: string): Promise<TokenRow | null> {
  if (!isWellFormedToken(raw)) return null;
  const hash = await sha256Hex(raw);
  let row: TokenAuthRow | undefined;
  try {
    const [rows] = await batchWithSettings(env, [activeTokenByHashQuery(getDb(env.DB), hash)]);
    row = (rows as TokenAuthRow[])[0];
  } catch (err) {
    log("warn", "auth.batch_failed", { error: String(err) });
    return authenticateToken(getDb(env.DB), raw);
  }
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
  let settings: AuthSettingsRow | null;
  let live: Map<string, LiveSession>;
  try {
    const [s, r] = await batchWithSettings(
      env,
      ids.length > 0
        ? [authSettingsQuery(db), liveSessionsQuery(db, ids, now.toISOString())]
        : [authSettingsQuery(db)],
    );
    settings = (s as AuthSettingsRow[])[0] ?? null;
    live = new Map(((r ?? []) as LiveSession[]).map((row) => [row.id, row]));
  } catch (err) {
    log("warn", "auth.batch_failed", { error: String(err) });
    const auth = await loadAuthState(env);
    const session =
      auth.degraded || values.length === 0 ? null : await resolveSession(env, auth.settings, values, now);
    return { auth, session };
  }
  const auth = { settings, passwordSet: Boolean(settings?.password_hash), degraded: false };
  if (ids.length === 0) return { auth, session: null };
  // Signature, expiry and epoch are checked against these settings; the row must be live now. A
  // signed value beyond the batch (past many planted ones) has its row read on its own.
  const fetched = new Set(ids);
  const session = await resolveSession(env, settings, values, now, async (id) =>
    fetched.has(id) ? (live.get(id) ?? null) : findLiveSession(db, id, now.toISOString()),
  );
  return { auth, session };
}
