/**
 * The override resolver's I/O: overrides and aliases are loaded together and cached for 5 minutes
 * per isolate, keyed by the two lists' versions in config_versions (bumped in every write's own
 * batch, db/lists.ts): a write in any isolate is seen by every other on its next use. A write in
 * this isolate also calls `invalidateResolverCache()`, which drops this isolate's copy (and the
 * in-memory key vectors of tier 3).
 */
import { getDb } from "../db";
import { listVersions } from "../db/lists";
import { aliasPairs } from "../domains/merchant-aliases/queries";
import { overridePairs } from "../domains/overrides/queries";
import type { Clock } from "../lib/clock";
import { log } from "../lib/log";
import { clearEmbeddingMemory } from "./fuzzy";
import { buildIndex, type ResolverIndex } from "./rules";

export const RESOLVER_TTL_MS = 5 * 60 * 1000;
/** The config_versions lists the index is built from. */
const LISTS = ["overrides", "merchant_aliases"];

let cache: { at: number; version: string | null; index: ResolverIndex } | null = null;

/** The two lists' versions as one stamp ("overrides:3,merchant_aliases:1"); null when unreadable. */
async function readVersion(d1: D1Database): Promise<string | null> {
  try {
    const rows = await listVersions(getDb(d1), LISTS);
    return LISTS.map((l) => `${l}:${rows.find((r) => r.name === l)?.version ?? 0}`).join(",");
  } catch {
    return null;
  }
}

/** Drops this isolate's cached overrides (call after every override or alias write). */
export function invalidateResolverCache(): void {
  cache = null;
  clearEmbeddingMemory();
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
