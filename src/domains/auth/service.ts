/** Dashboard password and browser sessions: set-password, login, sign-out-all, cookie checks. */
import { getDb } from "../../db";
import type { Statement } from "../../db/lists";
import type { ServiceCtx } from "../../lib/context";
import { ApiError, conflict, validationError } from "../../lib/errors";
import { log } from "../../lib/log";
import { pbkdf2Hex, randomBytes, sameSecret } from "./crypto";
import { markerSaysPasswordSet, markPasswordSet } from "./marker";
import {
  type AuthSettingsRow,
  authSettingsQuery,
  bumpSessionEpochQuery,
  ensureAuthSettingsQuery,
  passwordIs,
  passwordSet,
  readAuthSettings,
  writePasswordQuery,
} from "./queries";
import { endAllSessionsQuery, endSessionQuery, insertSessionIfQuery } from "./session-queries";
import { PBKDF2_ITERATIONS, clientBucket, toBase64Url, toHex } from "./rules";
import { type ClientInfo, newSessionRow, prepareSession, resolveSession, signSession } from "./sessions";
import { bucketsFor, reserveInBatch, throttled } from "./throttle";
import { deviceBucket, mintDevice, verifiedDevice } from "./device";

export interface AuthState {
  settings: AuthSettingsRow | null;
  passwordSet: boolean;
  /** D1 could not be read: sessions cannot be checked; `passwordSet` comes from the R2 marker. */
  degraded: boolean;
}

/** D1 failed: sessions cannot be checked; the R2 marker decides whether a password exists. */
export async function degradedAuthState(ctx: Pick<ServiceCtx, "env">, err: unknown): Promise<AuthState> {
  log("warn", "auth.d1_read_failed_using_marker", { error: String(err) });
  return { settings: null, passwordSet: await markerSaysPasswordSet(ctx.env.FILES), degraded: true };
}

/** The auth_settings row, created on first need with a fresh random session secret (one batch). */
async function ensureSettings(ctx: ServiceCtx): Promise<AuthSettingsRow> {
  const db = getDb(ctx.env.DB);
  const secret = toBase64Url(randomBytes(32));
  const [, rows] = await db.batch([
    ensureAuthSettingsQuery(db, secret, ctx.clock().toISOString()),
    authSettingsQuery(db),
  ]);
  return rows[0]!;
}

/** The throttle buckets a password check counts in: the device's, the caller's, or the address + global. */
const passwordBuckets = (ctx: ServiceCtx, client: ClientInfo, device: string | null = null) =>
  device ? [deviceBucket(device)] : bucketsFor(ctx.principal ?? null, clientBucket(client.ip));

/**
 * Checks a password against the stored hash through the throttle (the attempt is reserved before
 * hashing; 429 RATE_LIMITED with retry_after_seconds once a bucket is locked).
 */
async function checkPassword(
  ctx: ServiceCtx,
  {
    s,
    password,
    client,
    onWrong,
    device = null,
    onRight = [],
    reserved,
  }: {
    s: AuthSettingsRow;
    password: string;
    client: ClientInfo;
    onWrong: ApiError;
    device?: string | null;
    onRight?: Parameters<typeof throttled>[1]["onRight"];
    reserved?: Parameters<typeof throttled>[1]["reserved"];
  },
) {
  return throttled(ctx, {
    buckets: passwordBuckets(ctx, client, device),
    reserved,
    check: async () => {
      const hash = await pbkdf2Hex(
        password,
        s.password_salt ?? "",
        s.password_iterations ?? PBKDF2_ITERATIONS,
      );
      return sameSecret(hash, s.password_hash ?? "");
    },
    onWrong,
    onRight,
  });
}

/**
 * Sets or changes the dashboard password (ending trust on first use). Changing needs the
 * current password: its attempt is reserved in the batch that ensures and reads the auth row
 * (guarded: only when a password is set), and the new password's write rides in the throttle
 * reset's batch, so a change is three round trips like a first set. Every other session is signed
 * out; returns a fresh cookie for the caller.
 */
export async function setPassword(
  ctx: ServiceCtx,
  { input, client }: { input: { password: string; current_password?: string | null }; client: ClientInfo },
): Promise<{ session: string; settings: AuthSettingsRow }> {
  const db = getDb(ctx.env.DB);
  const nowIso = ctx.clock().toISOString();
  const current = input.current_password;
  const [, found, , reserved] = await db.batch([
    ensureAuthSettingsQuery(db, toBase64Url(randomBytes(32)), nowIso),
    authSettingsQuery(db),
    ...(current ? reserveInBatch(ctx, db, passwordBuckets(ctx, client), passwordSet()) : []),
  ]);
  const s = found[0]!;
  if (s.password_hash && !current) {
    throw validationError(
      [{ loc: ["body", "current_password"], msg: "required once a password is set", type: "missing" }],
      "The current password is required to change it",
    );
  }
  // One batch: the guarded write; only when it won, every session ended (so the Settings list says
  // so) and the caller's new session row; the row read back, whose new epoch signs the fresh cookie.
  const session = newSessionRow(ctx, client);
  const writes = async () => {
    const salt = toHex(randomBytes(16));
    const hash = await pbkdf2Hex(input.password, salt);
    await markPasswordSet(ctx.env.FILES, nowIso);
    const p = { hash, salt, iterations: PBKDF2_ITERATIONS, nowIso, expectedHash: s.password_hash };
    return [
      writePasswordQuery(db, p),
      endAllSessionsQuery(db, nowIso, { onlyIf: passwordIs(hash) }),
      insertSessionIfQuery(db, session, passwordIs(hash)),
      authSettingsQuery(db),
    ] as const;
  };
  const wrong = new ApiError(403, "The current password is wrong");
  const [res, , , rows] = (
    s.password_hash && current
      ? await checkPassword(ctx, {
          s,
          password: current,
          client,
          onWrong: wrong,
          onRight: async () => [...(await writes())],
          reserved,
        })
      : await db.batch(await writes())
  ) as [D1Result, unknown, unknown, AuthSettingsRow[]];
  if (res.meta.changes === 0) throw conflict("The password was changed by another request; try again");
  const settings = rows[0]!;
  return { session: await signSession(ctx.env, settings, session), settings };
}

/**
 * Verifies the password and returns a signed session cookie value and the browser's device cookie
 * (its own when one of `devices` verifies, which also moves the check into that device's bucket).
 */
export async function login(
  ctx: ServiceCtx,
  { input, client, devices = [] }: { input: { password: string }; client: ClientInfo; devices?: string[] },
): Promise<{ session: string; device: string }> {
  const s = await readAuthSettings(getDb(ctx.env.DB));
  if (!s?.password_hash) {
    throw conflict(
      "No password is set yet: the dashboard is open (set one with POST /api/v1/auth/set-password)",
    );
  }
  const known = await verifiedDevice(ctx.env, s, devices, ctx.clock());
  // The session row is inserted in the right password's batch (with the throttle's reset).
  const fresh = await prepareSession(ctx, { s, client });
  const wrong = new ApiError(401, "Wrong password");
  await checkPassword(ctx, {
    s,
    password: input.password,
    client,
    onWrong: wrong,
    device: known?.id,
    onRight: [fresh.insert],
  });
  return {
    session: fresh.cookie,
    device: await mintDevice(ctx.env, s, ctx.clock(), known?.id),
  };
}

/**
 * A device cookie for the browser that has just set the password (it signed in); `settings`: the row
 * set-password read back (else read now).
 */
export async function deviceAfterSetPassword(
  ctx: ServiceCtx,
  { devices, settings }: { devices: string[]; settings?: AuthSettingsRow },
): Promise<string> {
  const s = settings ?? (await readAuthSettings(getDb(ctx.env.DB)))!;
  const known = await verifiedDevice(ctx.env, s, devices, ctx.clock());
  return mintDevice(ctx.env, s, ctx.clock(), known?.id);
}

/**
 * Revokes every session at once: every row ended, and the epoch every cookie carries bumped. With
 * a current password, the attempt is reserved in the batch that ensures and reads the row (only
 * when a password is set: the guard reads the row that batch ensured), so the hash is checked
 * after one trip and a wrong password stays counted even if the request dies.
 */
export async function signOutAll(
  ctx: ServiceCtx,
  { input, client }: { input: { current_password?: string | null } | null; client: ClientInfo },
): Promise<void> {
  const db = getDb(ctx.env.DB);
  const nowIso = ctx.clock().toISOString();
  const revoke: Statement[] = [endAllSessionsQuery(db, nowIso), bumpSessionEpochQuery(db, nowIso)];
  const current = input?.current_password;
  if (!current) {
    await ensureSettings(ctx);
    await db.batch(revoke as [Statement, ...Statement[]]);
    return;
  }
  const [, rows, , reserved] = await db.batch([
    ensureAuthSettingsQuery(db, toBase64Url(randomBytes(32)), nowIso),
    authSettingsQuery(db),
    ...reserveInBatch(ctx, db, passwordBuckets(ctx, client), passwordSet()),
  ]);
  const s = rows[0]!;
  if (!s.password_hash) {
    await db.batch(revoke as [Statement, ...Statement[]]);
    return;
  }
  // Every row ended and the epoch bumped in one batch: a right current password's own batch.
  const wrong = new ApiError(403, "The current password is wrong");
  await checkPassword(ctx, { s, password: current, client, onWrong: wrong, onRight: revoke, reserved });
}

/** Logout: ends the session the request's cookie names (the first `app_session` that verifies). */
export async function logout(ctx: ServiceCtx, cookies: string[]): Promise<void> {
  const settings = await readAuthSettings(getDb(ctx.env.DB)).catch(
    async (err: unknown) => (await degradedAuthState(ctx, err)).settings,
  );
  const session = await resolveSession(ctx.env, settings, cookies, ctx.clock());
  if (session) await endSessionQuery(getDb(ctx.env.DB), session.id, ctx.clock().toISOString());
}
