/**
 * The override resolver's I/O: overrides and aliases are loaded together and cached for 5 minutes
 * per isolate, keyed by the two lists' versions in config_versions (bumped in every write's own
 * batch, db/lists.ts): a write in any isolate is seen by every other on its next use. A write in
 * this isolate also calls `invalidateResolverCache()`, which drops this isolate's copy (and the
 * in-memory key vectors of tier 3).
 */
import type { Db } from "../db";
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

const stampOf = (rows: { name: string; version: number }[]) =>
  LISTS.map((l) => `${l}:${rows.find((r) => r.name === l)?.version ?? 0}`).join(",");

/** The two lists' versions as one stamp ("overrides:3,merchant_aliases:1"); null when unreadable. */
async function readVersion(db: Db): Promise<string | null> {
  try {
    return stampOf(await listVersions(db, LISTS));
  } catch {
    return null;
  }
}

const fresh = (now: number, version: string | null) =>
  cache !== null && cache.version === version && now - cache.at < RESOLVER_TTL_MS && now >= cache.at;

/**
 * The resolver's reads for a caller's batch (the email door's settings batch): the version stamp,
 * and the two lists too when this isolate's copy has expired (they would be read next anyway).
 * `take` gives the stamp to pass to getResolverIndex as `known` and primes the cache.
 */
export function resolverReads(db: Db, clock: Clock) {
  const now = clock().getTime();
  const withLists = !(cache && now - cache.at < RESOLVER_TTL_MS && now >= cache.at);
  const stmts = [listVersions(db, LISTS), ...(withLists ? [overridePairs(db), aliasPairs(db)] : [])];
  const take = (results: unknown[]): string => {
    const version = stampOf(results[0] as { name: string; version: number }[]);
    if (withLists && !fresh(now, version)) {
      const [o, a] = results.slice(1) as [OverridePair[], AliasPair[]];
      cache = { at: now, version, index: buildIndex(o, a) };
    }
    return version;
  };
  return { stmts, take };
}

type OverridePair = Parameters<typeof buildIndex>[0][number];
type AliasPair = Parameters<typeof buildIndex>[1][number];

/** Drops this isolate's cached overrides (call after every override or alias write). */
export function invalidateResolverCache(): void {
  cache = null;
  clearEmbeddingMemory();
}

/**
 * The current index; an unreadable store gives an empty index (categorization goes on). `known`:
 * the version stamp this request already read (resolverReads), so it is not read again.
 */
export async function getResolverIndex(db: Db, clock: Clock, known?: string | null): Promise<ResolverIndex> {
  const now = clock().getTime();
  const version = known === undefined || known === null ? await readVersion(db) : known;
  if (cache && fresh(now, version)) return cache.index;
  try {
    const [o, a] = await db.batch([overridePairs(db), aliasPairs(db)]);
    cache = { at: now, version, index: buildIndex(o, a) };
    return cache.index;
  } catch (err) {
    log("warn", "resolver.load_failed", { error: String(err) });
    return cache?.index ?? buildIndex([], []);
  }
}
