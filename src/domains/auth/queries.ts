/** Queries of authentication: api_tokens and the single auth_settings row. No rules here. */
import { and, asc, eq, isNotNull, isNull, lte, or, sql } from "drizzle-orm";
import type { Db } from "../../db";
import { apiTokens, authSettings } from "../../db/schema";

const t = apiTokens;
const a = authSettings;
/** The single owner row. */
const owner = () => eq(a.id, "owner");

/** A token's metadata as listed and returned: never the hash. */
export type TokenRow = Pick<typeof t.$inferSelect, "id" | "label" | "scope" | "created_at" | "last_used_at">;
export type AuthSettingsRow = Pick<
  typeof a.$inferSelect,
  | "password_hash"
  | "password_salt"
  | "password_iterations"
  | "session_epoch"
  | "session_secret"
  | "failed_logins"
  | "locked_until"
>;

const TOKEN_COLUMNS = {
  id: t.id,
  label: t.label,
  scope: t.scope,
  created_at: t.created_at,
  last_used_at: t.last_used_at,
};

/** The live token of a hash (unexecuted: the auth middleware runs it inside its one batch). */
export function activeTokenByHashQuery(db: Db, hash: string) {
  return db
    .select({ ...TOKEN_COLUMNS, token_hash: t.token_hash })
    .from(t)
    .where(and(eq(t.token_hash, hash), isNull(t.revoked_at)));
}

export async function findActiveToken(db: Db, id: string): Promise<TokenRow | null> {
  const [row] = await db
    .select(TOKEN_COLUMNS)
    .from(t)
    .where(and(eq(t.id, id), isNull(t.revoked_at)));
  return row ?? null;
}

export function listActiveTokens(db: Db): Promise<TokenRow[]> {
  return db.select(TOKEN_COLUMNS).from(t).where(isNull(t.revoked_at)).orderBy(asc(t.created_at), asc(t.id));
}

/** The insert of a new token (unexecuted: the verb runs it in its batch with its ledger entry). */
export const insertToken = (db: Db, row: TokenRow & { token_hash: string }) =>
  db.insert(t).values({ ...row, last_used_at: null });

/** Permanent: a revoked token never authenticates again (unexecuted; no change: nothing was live). */
export const revokeToken = (db: Db, id: string, nowIso: string) =>
  db
    .update(t)
    .set({ revoked_at: nowIso })
    .where(and(eq(t.id, id), isNull(t.revoked_at)));

/** Conditional stamp: concurrent requests still write at most once per throttle window. */
export async function stampTokenUsed(db: Db, id: string, nowIso: string, staleBeforeIso: string) {
  await db
    .update(t)
    .set({ last_used_at: nowIso })
    .where(and(eq(t.id, id), or(isNull(t.last_used_at), lte(t.last_used_at, staleBeforeIso))));
}

/** The owner row (unexecuted: the auth middleware runs it inside its one batch). */
export function authSettingsQuery(db: Db) {
  return db
    .select({
      password_hash: a.password_hash,
      password_salt: a.password_salt,
      password_iterations: a.password_iterations,
      session_epoch: a.session_epoch,
      session_secret: a.session_secret,
      failed_logins: a.failed_logins,
      locked_until: a.locked_until,
    })
    .from(a)
    .where(owner());
}

export async function readAuthSettings(db: Db): Promise<AuthSettingsRow | null> {
  const [row] = await authSettingsQuery(db);
  return row ?? null;
}

/**
 * Creates the row when missing; a session secret already stored is kept (first writer wins).
 * Unexecuted: for a batch that reads the row back after it.
 */
export function ensureAuthSettingsQuery(db: Db, secret: string, nowIso: string) {
  return db
    .insert(a)
    .values({ id: "owner", session_secret: secret, updated_at: nowIso })
    .onConflictDoUpdate({
      target: a.id,
      set: { session_secret: sql`COALESCE(${a.session_secret}, ${secret})` },
    });
}

/**
 * Stores a new password hash, clears the failure counter and bumps the session epoch, only when
 * the stored hash is still `expectedHash` (so two concurrent first set-passwords cannot both win).
 * Unexecuted: its result's meta.changes says whether it won.
 */
export function writePasswordQuery(
  db: Db,
  p: { hash: string; salt: string; iterations: number; nowIso: string; expectedHash: string | null },
) {
  return db
    .update(a)
    .set({
      password_hash: p.hash,
      password_salt: p.salt,
      password_iterations: p.iterations,
      password_updated_at: p.nowIso,
      updated_at: p.nowIso,
      failed_logins: 0,
      locked_until: null,
      session_epoch: sql`${a.session_epoch} + 1`,
    })
    .where(and(owner(), sql`${a.password_hash} IS ${p.expectedHash}`));
}

/**
 * True (in SQL) once the stored hash is `hash`: a later statement of the password write's batch
 * runs only when that write won (a fresh salt makes the hash unique to this request).
 */
export const passwordIs = (hash: string) =>
  sql`EXISTS (SELECT 1 FROM ${a} WHERE ${a.id} = 'owner' AND ${a.password_hash} = ${hash})`;

/** A condition for a batch's later statement: a dashboard password is set (read when it runs). */
export const passwordSet = () =>
  sql`EXISTS (SELECT 1 FROM ${a} WHERE ${a.id} = 'owner' AND ${a.password_hash} IS NOT NULL)`;

export const bumpSessionEpochQuery = (db: Db, nowIso: string) =>
  db
    .update(a)
    .set({ session_epoch: sql`${a.session_epoch} + 1`, updated_at: nowIso })
    .where(owner());

/** One row when a password is set, none otherwise (unexecuted: health batches it). */
export function passwordSetQuery(db: Db) {
  return db
    .select({ one: sql`1` })
    .from(a)
    .where(and(owner(), isNotNull(a.password_hash)));
}
