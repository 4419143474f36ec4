/** What ingestion reads from configuration: getConfig() plus the blocked-company list. */
import { eq } from "drizzle-orm";
import { getDb } from "../db";
import { kvState } from "../db/schema";
import { getConfig } from "../domains/config/service";
import type { Env } from "../env";
import { log } from "../lib/log";
import { loadCardNames } from "./card-names";
import { DEFAULT_JOURNAL_CURRENCY } from "./checks";
import type { IngestSettings } from "./types";

export const BLOCKED_COMPANIES_KEY = "blocked_companies";

/** kv_state 'blocked_companies' holds a JSON array of names (config/blocked_companies.json format). */
export async function loadBlockedCompanies(d1: D1Database): Promise<string[]> {
  try {
    const row = await getDb(d1)
      .select({ value: kvState.value })
      .from(kvState)
      .where(eq(kvState.key, BLOCKED_COMPANIES_KEY))
      .get();
    const list = row ? (JSON.parse(row.value) as unknown) : [];
    return Array.isArray(list) ? list.filter((x): x is string => typeof x === "string") : [];
  } catch (err) {
    log("warn", "ingest.blocked_companies_read_failed", { error: String(err) });
    return [];
  }
}

export async function saveBlockedCompanies(d1: D1Database, names: string[], nowIso: string): Promise<void> {
  const value = JSON.stringify(names);
  await getDb(d1)
    .insert(kvState)
    .values({ key: BLOCKED_COMPANIES_KEY, value, updated_at: nowIso })
    .onConflictDoUpdate({ target: kvState.key, set: { value, updated_at: nowIso } });
}

export async function loadIngestSettings(env: Env): Promise<IngestSettings> {
  const [config, blocked, cardNames] = await Promise.all([
    getConfig({ ctx: { env } }),
    loadBlockedCompanies(env.DB),
    loadCardNames(env.DB),
  ]);
  return {
    timezone: config.timezone,
    userId: config.user_id,
    aiCategorizationEnabled: config.ai_categorization_enabled,
    aiExtractionEnabled: config.ai_extraction_enabled,
    blockedCompanies: blocked,
    currency: config.journal_currency ?? DEFAULT_JOURNAL_CURRENCY,
    forwardingAddresses: config.forwarding_addresses ?? [],
    cardNames,
  };
}
