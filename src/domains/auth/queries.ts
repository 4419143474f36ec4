/** D1 queries of authentication: api_tokens and the single auth_settings row. No rules here. */
import type { TokenScope } from "./rules";

export interface TokenRow {
  id: string;
  label: string;
  scope: TokenScope;
  created_at: string;
  last_used_at: string | null;
}

export interface TokenAuthRow extends TokenRow {
  token_hash: string;
}

export interface AuthSettingsRow {
  password_hash: string | null;
  password_salt: string | null;
  password_iterations: number | null;
  session_epoch: number;
  session_secret: string | null;
  failed_logins: number;
  locked_until: string | null;
}

const TOKEN_COLUMNS = "id, label, scope, created_at, last_used_at";

export function findActiveTokenByHash(db: D1Database, hash: string): Promise<TokenAuthRow | null> {
  return db
    .prepare(
      `SELECT ${TOKEN_COLUMNS}, token_hash FROM api_tokens WHERE token_hash = ? AND revoked_at IS NULL`,
    )
    .bind(hash)
    .first<TokenAuthRow>();
}

export function findActiveToken(db: D1Database, id: string): Promise<TokenRow | null> {
  return db
    .prepare(`SELECT ${TOKEN_COLUMNS} FROM api_tokens WHERE id = ? AND revoked_at IS NULL`)
    .bind(id)
    .first<TokenRow>();
}

export async function listActiveTokens(db: D1Database): Promise<TokenRow[]> {
  const { results } = await db
    .prepare(`SELECT ${TOKEN_COLUMNS} FROM api_tokens WHERE revoked_at IS NULL ORDER BY created_at, id`)
    .all<TokenRow>();
  return results;
}

export async function insertToken(db: D1Database, row: TokenRow & { token_hash: string }): Promise<void> {
  await db
    .prepare(
      "INSERT INTO api_tokens (id, label, scope, token_hash, created_at, last_used_at) VALUES (?, ?, ?, ?, ?, NULL)",
    )
    .bind(row.id, row.label, row.scope, row.token_hash, row.created_at)
    .run();
}

/** Permanent: a revoked token never authenticates again. Returns whether a live token was revoked. */
export async function revokeToken(db: D1Database, id: string, nowIso: string): Promise<boolean> {
  const res = await db
    .prepare("UPDATE api_tokens SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL")
    .bind(nowIso, id)
    .run();
  return res.meta.changes > 0;
}

/** Conditional stamp: concurrent requests still write at most once per throttle window. */
export async function stampTokenUsed(db: D1Database, id: string, nowIso: string, staleBeforeIso: string) {
  await db
    .prepare(
      "UPDATE api_tokens SET last_used_at = ?1 WHERE id = ?2 AND (last_used_at IS NULL OR last_used_at <= ?3)",
    )
    .bind(nowIso, id, staleBeforeIso)
    .run();
}

export function readAuthSettings(db: D1Database): Promise<AuthSettingsRow | null> {
  return db
    .prepare(
      `SELECT password_hash, password_salt, password_iterations, session_epoch, session_secret,
              failed_logins, locked_until FROM auth_settings WHERE id = 'owner'`,
    )
    .first<AuthSettingsRow>();
}

/** Creates the row when missing; a session secret already stored is kept (first writer wins). */
export async function ensureAuthSettings(db: D1Database, secret: string, nowIso: string): Promise<void> {
  await db
    .prepare(
      `INSERT INTO auth_settings (id, session_secret, updated_at) VALUES ('owner', ?1, ?2)
       ON CONFLICT (id) DO UPDATE SET session_secret = COALESCE(session_secret, ?1)`,
    )
    .bind(secret, nowIso)
    .run();
}

/**
 * Stores a new password hash, clears the failure counter and bumps the session epoch, only when
 * the stored hash is still `expectedHash` (so two concurrent first set-passwords cannot both win).
 */
export async function writePassword(
  db: D1Database,
  p: { hash: string; salt: string; iterations: number; nowIso: string; expectedHash: string | null },
): Promise<boolean> {
  const res = await db
    .prepare(
      `UPDATE auth_settings SET password_hash = ?1, password_salt = ?2, password_iterations = ?3,
         password_updated_at = ?4, updated_at = ?4, failed_logins = 0, locked_until = NULL,
         session_epoch = session_epoch + 1 WHERE id = 'owner' AND password_hash IS ?5`,
    )
    .bind(p.hash, p.salt, p.iterations, p.nowIso, p.expectedHash)
    .run();
  return res.meta.changes > 0;
}

export async function bumpSessionEpoch(db: D1Database, nowIso: string): Promise<void> {
  await db
    .prepare("UPDATE auth_settings SET session_epoch = session_epoch + 1, updated_at = ? WHERE id = 'owner'")
    .bind(nowIso)
    .run();
}

/** Counts one wrong password atomically; returns the new consecutive count. */
export async function recordFailure(db: D1Database, nowIso: string): Promise<number> {
  const n = await db
    .prepare(
      "UPDATE auth_settings SET failed_logins = failed_logins + 1, updated_at = ? WHERE id = 'owner' RETURNING failed_logins",
    )
    .bind(nowIso)
    .first<number>("failed_logins");
  return n ?? 0;
}

export async function setLockedUntil(db: D1Database, lockedUntil: string | null): Promise<void> {
  await db.prepare("UPDATE auth_settings SET locked_until = ? WHERE id = 'owner'").bind(lockedUntil).run();
}

export async function clearFailures(db: D1Database): Promise<void> {
  await db
    .prepare("UPDATE auth_settings SET failed_logins = 0, locked_until = NULL WHERE id = 'owner'")
    .run();
}
