/**
 * The override resolver's I/O: overrides and aliases are loaded together and cached for 5 minutes
 * per isolate. Any override or alias change calls `invalidateResolverCache(db)`, which drops this
 * isolate's copy (and the in-memory key vectors of tier 3) and bumps a version stamp in kv_state
 * so other isolates reload on their next use.
 */
import { eq } from "drizzle-orm";
import { getDb } from "../db";
import { kvState } from "../db/schema";
import { aliasPairs } from "../domains/merchant-aliases/queries";
import { overridePairs } from "../domains/overrides/queries";
import type { Clock } from "../lib/clock";
import { log } from "../lib/log";
import { clearEmbeddingMemory } from "./fuzzy";
import { buildIndex, type ResolverIndex } from "./rules";

export const RESOLVER_TTL_MS = 5 * 60 * 1000;
export const RESOLVER_VERSION_KEY = "resolver_version";

let cache: { at: number; version: string | null; index: ResolverIndex } | null = null;

async function readVersion(d1: D1Database): Promise<string | null> {
  try {
    const row = await getDb(d1)
      .select({ value: kvState.value })
      .from(kvState)
      .where(eq(kvState.key, RESOLVER_VERSION_KEY))
      .get();
    return row?.value ?? null;
  } catch {
    return null;
  }
}

/**
 * Drops the cached overrides. With a db, also bumps the shared version stamp (call this after
 * every override or alias write).
 */
export async function invalidateResolverCache(
  d1?: D1Database,
  nowIso = new Date().toISOString(),
): Promise<void> {
  cache = null;
  clearEmbeddingMemory();
  if (!d1) return;
  const value = `${nowIso}#${crypto.randomUUID()}`;
  try {
    await getDb(d1)
      .insert(kvState)
      .values({ key: RESOLVER_VERSION_KEY, value, updated_at: nowIso })
      .onConflictDoUpdate({ target: kvState.key, set: { value, updated_at: nowIso } });
  } catch (err) {
    log("warn", "resolver.version_bump_failed", { error: String(err) });
  }
}

async function loadRows(d1: D1Database) {
  const db = getDb(d1);
  const [o, a] = await db.batch([overridePairs(db), aliasPairs(db)]);
  return { overrides: o, aliases: a };
}

/** The current index; an unreadable store gives an empty index (categorization goes on). */
export async function getResolverIndex(d1: D1Database, clock: Clock): Promise<ResolverIndex> {
  const now = clock().getTime();
  const version = await readVersion(d1);
  if (cache && cache.version === version && now - cache.at < RESOLVER_TTL_MS && now >= cache.at) {
    return cache.index;
  }
  try {
    const { overrides: o, aliases } = await loadRows(d1);
    cache = { at: now, version, index: buildIndex(o, aliases) };
    return cache.index;
  } catch (err) {
    log("warn", "resolver.load_failed", { error: String(err) });
    return cache?.index ?? buildIndex([], []);
  }
}
