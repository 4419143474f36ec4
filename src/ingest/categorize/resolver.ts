/**
 * The override resolver's I/O: overrides and aliases are loaded together and cached for 5 minutes
 * per isolate. Any override or alias change calls `invalidateResolverCache(db)`, which drops this
 * isolate's copy and bumps a version stamp in kv_state so other isolates reload on their next use.
 */
import type { Clock } from "../../lib/clock";
import { log } from "../../lib/log";
import { type AliasRow, buildIndex, type OverrideRow, type ResolverIndex } from "./rules";

export const RESOLVER_TTL_MS = 5 * 60 * 1000;
export const RESOLVER_VERSION_KEY = "resolver_version";

let cache: { at: number; version: string | null; index: ResolverIndex } | null = null;

async function readVersion(db: D1Database): Promise<string | null> {
  try {
    return await db
      .prepare("SELECT value FROM kv_state WHERE key = ?")
      .bind(RESOLVER_VERSION_KEY)
      .first<string>("value");
  } catch {
    return null;
  }
}

/**
 * Drops the cached overrides. With a db, also bumps the shared version stamp (call this after
 * every override or alias write).
 */
export async function invalidateResolverCache(
  db?: D1Database,
  nowIso = new Date().toISOString(),
): Promise<void> {
  cache = null;
  if (!db) return;
  try {
    await db
      .prepare(
        `INSERT INTO kv_state (key, value, updated_at) VALUES (?1, ?2, ?3)
         ON CONFLICT (key) DO UPDATE SET value = ?2, updated_at = ?3`,
      )
      .bind(RESOLVER_VERSION_KEY, `${nowIso}#${crypto.randomUUID()}`, nowIso)
      .run();
  } catch (err) {
    log("warn", "resolver.version_bump_failed", { error: String(err) });
  }
}

async function loadRows(db: D1Database): Promise<{ overrides: OverrideRow[]; aliases: AliasRow[] }> {
  const [o, a] = await db.batch([
    db.prepare("SELECT company, category FROM overrides"),
    db.prepare("SELECT raw_name, canonical FROM merchant_aliases"),
  ]);
  return {
    overrides: (o?.results ?? []) as OverrideRow[],
    aliases: (a?.results ?? []) as AliasRow[],
  };
}

/** The current index; an unreadable store gives an empty index (categorization goes on). */
export async function getResolverIndex(db: D1Database, clock: Clock): Promise<ResolverIndex> {
  const now = clock().getTime();
  const version = await readVersion(db);
  if (cache && cache.version === version && now - cache.at < RESOLVER_TTL_MS && now >= cache.at) {
    return cache.index;
  }
  try {
    const { overrides, aliases } = await loadRows(db);
    cache = { at: now, version, index: buildIndex(overrides, aliases) };
    return cache.index;
  } catch (err) {
    log("warn", "resolver.load_failed", { error: String(err) });
    return cache?.index ?? buildIndex([], []);
  }
}
