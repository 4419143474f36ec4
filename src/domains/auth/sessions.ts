/**
 * Browser sessions with a server-side identity: a row per session, its id inside the signed
 * cookie. Logout ends one row, sign-out-all and a password change end them all; a cookie whose
 * row is ended or missing is refused even while its signature and expiry still hold.
 */
import { getDb, type Db } from "../../db";
import type { Statement } from "../../db/lists";
import { type Env, isDemo } from "../../env";
import type { ServiceCtx } from "../../lib/context";
import { notFound } from "../../lib/errors";
import { hmacSign, hmacVerify, randomBytes } from "./crypto";
import type { AuthSettingsRow } from "./queries";
import {
  endSessionQuery,
  findLiveSession,
  insertSessionQuery,
  type LiveSession,
  type SessionRow,
  listLiveSessions,
  stampSessionSeen,
} from "./session-queries";
import {
  LAST_USED_THROTTLE_MS,
  parseSessionCookie,
  SESSION_ID_SHAPE,
  SESSION_TTL_S,
  sessionIsLive,
  sessionPayload,
  shouldStampLastUsed,
  toHex,
  USER_AGENT_MAX,
} from "./rules";

/** Who is logging in, as the request says: stored on the row so the owner can tell sessions apart. */
export interface ClientInfo {
  ip: string | null;
  userAgent: string | null;
}

/** The signing secret: SESSION_SECRET when set, else the random one stored in D1. Never returned. */
export function sessionSecret(env: Env, s: AuthSettingsRow): string | null {
  return env.SESSION_SECRET?.trim() || s.session_secret;
}

/** A new session: its row's insert (unexecuted, for the caller's batch) and its signed cookie value. */
export async function prepareSession(
  ctx: ServiceCtx,
  { s, client }: { s: AuthSettingsRow; client: ClientInfo },
): Promise<{ insert: Statement; cookie: string }> {
  const row = newSessionRow(ctx, client);
  return { insert: insertSessionQuery(getDb(ctx.env.DB), row), cookie: await signSession(ctx.env, s, row) };
}

/** A new session's row (random id, the TTL from now); nothing is written. */
export function newSessionRow(ctx: ServiceCtx, client: ClientInfo): SessionRow {
  const now = ctx.clock();
  const exp = Math.floor(now.getTime() / 1000) + SESSION_TTL_S;
  return {
    id: `ses_${toHex(randomBytes(16))}`,
    created_at: now.toISOString(),
    last_seen_at: now.toISOString(),
    user_agent: client.userAgent ? client.userAgent.slice(0, USER_AGENT_MAX) : null,
    ip: client.ip ? client.ip.slice(0, 64) : null,
    ended_at: null,
    expires_at: new Date(exp * 1000).toISOString(),
  };
}

/** The signed cookie value carrying a session row's id, at the epoch of `s`. */
export async function signSession(env: Env, s: AuthSettingsRow, row: SessionRow): Promise<string> {
  const exp = Math.floor(Date.parse(row.expires_at) / 1000);
  const payload = sessionPayload({ epoch: s.session_epoch, exp, nonce: row.id });
  return `${payload}.${await hmacSign(sessionSecret(env, s)!, payload)}`;
}

/**
 * The live session of the first `app_session` value that verifies (signature, expiry, epoch, and
 * a live row), or null. Every value is tried: a cookie planted by a sibling subdomain may come
 * first and must not shadow the real one.
 */
export async function resolveSession(
  env: Env,
  s: AuthSettingsRow | null,
  values: string[],
  now: Date,
  /** The live row of an id: by default read from D1; the auth middleware passes its batch's rows. */
  find: (id: string) => Promise<LiveSession | null> = (id) =>
    findLiveSession(getDb(env.DB), id, now.toISOString()),
): Promise<LiveSession | null> {
  if (!s?.password_hash) return null;
  const secret = sessionSecret(env, s);
  if (!secret) return null;
  for (const value of values) {
    const parsed = parseSessionCookie(value);
    if (!parsed || !SESSION_ID_SHAPE.test(parsed.claims.nonce)) continue;
    if (!(await hmacVerify(secret, parsed.payload, parsed.signature))) continue;
    if (!sessionIsLive(parsed.claims, s.session_epoch, now)) continue;
    const row = await find(parsed.claims.nonce);
    if (row) return row;
  }
  return null;
}

/** Records use at most once per 15 minutes per session (the UPDATE is conditional too). */
export async function stampSessionSeenAt(db: Db, session: LiveSession, now: Date): Promise<void> {
  if (!shouldStampLastUsed(session.last_seen_at, now)) return;
  const staleBefore = new Date(now.getTime() - LAST_USED_THROTTLE_MS).toISOString();
  await stampSessionSeen(db, session.id, now.toISOString(), staleBefore);
}

/** Active sessions, oldest first, the caller's own marked `current`. Never a cookie or secret. */
export async function listSessions(ctx: Pick<ServiceCtx, "env" | "clock" | "principal">) {
  const rows = await listLiveSessions(getDb(ctx.env.DB), ctx.clock().toISOString());
  const mine = ctx.principal.kind === "session" ? ctx.principal.id : null;
  // The public demo shows that sessions exist, never where from.
  const hide = isDemo(ctx.env);
  return rows.map(({ ended_at: _e, ...r }) => ({
    ...r,
    ...(hide ? { ip: null, user_agent: null } : {}),
    current: r.id === mine,
  }));
}

/**
 * `DELETE /auth/sessions/{id}`: 404 when unknown or already ended. The entry rides in the guarded
 * write's batch (none when nothing ended).
 */
export async function signOutSession(
  ctx: Pick<ServiceCtx, "env" | "clock" | "journal" | "batch">,
  id: string,
): Promise<void> {
  ctx.journal({ resourceId: id, summary: "signed a browser session out" });
  const [res] = await ctx.batch([endSessionQuery(getDb(ctx.env.DB), id, ctx.clock().toISOString())], {
    ifChanged: true,
  });
  if (res.meta.changes === 0) throw notFound("Session");
}
