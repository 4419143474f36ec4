/** Recipient (forwarded-to) → UserId through user_mappings, cached per isolate for a short time. */
import type { Clock } from "../lib/clock";
import { log } from "../lib/log";

const TTL_MS = 60_000;

let cache: { at: number; map: Map<string, string> } | null = null;

export function invalidateUserMappings(): void {
  cache = null;
}

async function load(db: D1Database): Promise<Map<string, string>> {
  const { results } = await db.prepare("SELECT ForwardedTo, UserId FROM user_mappings").all<{
    ForwardedTo: string;
    UserId: string;
  }>();
  return new Map(results.map((r) => [r.ForwardedTo.toLowerCase(), r.UserId]));
}

/** The mapped UserId, else the configured default (a failed lookup also gives the default). */
export async function resolveUserId(
  db: D1Database,
  forwardedTo: string,
  fallback: string,
  clock: Clock,
): Promise<string> {
  const now = clock().getTime();
  try {
    if (!cache || now - cache.at > TTL_MS || now < cache.at) cache = { at: now, map: await load(db) };
    return cache.map.get(forwardedTo.toLowerCase()) ?? fallback;
  } catch (err) {
    log("warn", "ingest.user_mapping_failed", { error: String(err) });
    return fallback;
  }
}
