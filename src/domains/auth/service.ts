/** Dashboard password and browser sessions: set-password, login, sign-out-all, cookie checks. */
import { getDb } from "../../db";
import type { Env } from "../../env";
import type { ServiceCtx } from "../../lib/context";
import { ApiError, conflict, validationError } from "../../lib/errors";
import { log } from "../../lib/log";
import { hmacSign, hmacVerify, pbkdf2Hex, randomBytes, sameSecret } from "./crypto";
import { markerSaysPasswordSet, markPasswordSet } from "./marker";
import {
  type AuthSettingsRow,
  bumpSessionEpoch,
  clearFailures,
  ensureAuthSettings,
  readAuthSettings,
  recordFailure,
  setLockedUntil,
  writePassword,
} from "./queries";
import {
  lockoutSeconds,
  PBKDF2_ITERATIONS,
  parseSessionCookie,
  retryAfterSeconds,
  SESSION_TTL_S,
  sessionIsLive,
  sessionPayload,
  toBase64Url,
  toHex,
} from "./rules";

type Ctx = Pick<ServiceCtx, "env" | "clock">;

export interface AuthState {
  settings: AuthSettingsRow | null;
  passwordSet: boolean;
  /** D1 could not be read: sessions cannot be checked; `passwordSet` comes from the R2 marker. */
  degraded: boolean;
}

/** The auth row from D1; when D1 fails, the R2 marker decides whether a password exists. */
export async function loadAuthState(env: Env): Promise<AuthState> {
  try {
    const settings = await readAuthSettings(getDb(env.DB));
    return { settings, passwordSet: Boolean(settings?.password_hash), degraded: false };
  } catch (err) {
    log("warn", "auth.d1_read_failed_using_marker", { error: String(err) });
    return { settings: null, passwordSet: await markerSaysPasswordSet(env.FILES), degraded: true };
  }
}

/** The signing secret: SESSION_SECRET when set, else the random one stored in D1. Never returned. */
function sessionSecret(env: Env, s: AuthSettingsRow): string | null {
  return env.SESSION_SECRET?.trim() || s.session_secret;
}

/** The auth_settings row, created on first need with a fresh random session secret. */
async function ensureSettings(ctx: Ctx): Promise<AuthSettingsRow> {
  await ensureAuthSettings(getDb(ctx.env.DB), toBase64Url(randomBytes(32)), ctx.clock().toISOString());
  return (await readAuthSettings(getDb(ctx.env.DB)))!;
}

/** True when the cookie is well formed, correctly signed, unexpired and of the current epoch. */
export async function verifySessionCookie(
  env: Env,
  s: AuthSettingsRow | null,
  value: string,
  now: Date,
): Promise<boolean> {
  if (!s?.password_hash) return false;
  const parsed = parseSessionCookie(value);
  const secret = sessionSecret(env, s);
  if (!parsed || !secret) return false;
  if (!(await hmacVerify(secret, parsed.payload, parsed.signature))) return false;
  return sessionIsLive(parsed.claims, s.session_epoch, now);
}

async function mintSession(ctx: Ctx): Promise<string> {
  const s = await ensureSettings(ctx);
  const exp = Math.floor(ctx.clock().getTime() / 1000) + SESSION_TTL_S;
  const payload = sessionPayload({ epoch: s.session_epoch, exp, nonce: toBase64Url(randomBytes(12)) });
  return `${payload}.${await hmacSign(sessionSecret(ctx.env, s)!, payload)}`;
}

/**
 * Checks a password against the stored hash, honouring the lockout window: repeated wrong
 * passwords lock further attempts for a growing time (429 RATE_LIMITED with retry_after_seconds).
 */
async function checkPassword(ctx: Ctx, s: AuthSettingsRow, password: string, onWrong: ApiError) {
  const now = ctx.clock();
  const wait = retryAfterSeconds(s.locked_until, now);
  if (wait > 0) throw rateLimited(wait);
  const hash = await pbkdf2Hex(password, s.password_salt ?? "", s.password_iterations ?? PBKDF2_ITERATIONS);
  if (sameSecret(hash, s.password_hash ?? "")) {
    if (s.failed_logins > 0 || s.locked_until) await clearFailures(getDb(ctx.env.DB));
    return;
  }
  const failures = await recordFailure(getDb(ctx.env.DB), now.toISOString());
  const lock = lockoutSeconds(failures);
  if (lock > 0) {
    await setLockedUntil(getDb(ctx.env.DB), new Date(now.getTime() + lock * 1000).toISOString());
    throw rateLimited(lock);
  }
  throw onWrong;
}

function rateLimited(seconds: number): ApiError {
  return new ApiError(429, "Too many wrong passwords: try again later", "RATE_LIMITED", {
    retry_after_seconds: seconds,
  });
}

/**
 * Sets or changes the dashboard password (ending trust on first use). Changing needs the
 * current password. Every other session is signed out; returns a fresh cookie for the caller.
 */
export async function setPassword({
  ctx,
  input,
}: {
  ctx: Ctx;
  input: { password: string; current_password?: string | null };
}): Promise<string> {
  const s = await ensureSettings(ctx);
  if (s.password_hash) {
    if (!input.current_password) {
      throw validationError(
        [{ loc: ["body", "current_password"], msg: "required once a password is set", type: "missing" }],
        "The current password is required to change it",
      );
    }
    await checkPassword(ctx, s, input.current_password, new ApiError(403, "The current password is wrong"));
  }
  const salt = toHex(randomBytes(16));
  const hash = await pbkdf2Hex(input.password, salt);
  const nowIso = ctx.clock().toISOString();
  await markPasswordSet(ctx.env.FILES, nowIso);
  const written = await writePassword(getDb(ctx.env.DB), {
    hash,
    salt,
    iterations: PBKDF2_ITERATIONS,
    nowIso,
    expectedHash: s.password_hash,
  });
  if (!written) throw conflict("The password was changed by another request; try again");
  return mintSession(ctx);
}

/** Verifies the password and returns a signed session cookie value. */
export async function login({ ctx, input }: { ctx: Ctx; input: { password: string } }): Promise<string> {
  const s = await readAuthSettings(getDb(ctx.env.DB));
  if (!s?.password_hash) {
    throw conflict(
      "No password is set yet: the dashboard is open (set one with POST /api/v1/auth/set-password)",
    );
  }
  await checkPassword(ctx, s, input.password, new ApiError(401, "Wrong password"));
  return mintSession(ctx);
}

/** Revokes every session at once by bumping the epoch every cookie carries. */
export async function signOutAll({
  ctx,
  input,
}: {
  ctx: Ctx;
  input: { current_password?: string | null } | null;
}): Promise<void> {
  const s = await ensureSettings(ctx);
  if (input?.current_password && s.password_hash) {
    await checkPassword(ctx, s, input.current_password, new ApiError(403, "The current password is wrong"));
  }
  await bumpSessionEpoch(getDb(ctx.env.DB), ctx.clock().toISOString());
}
