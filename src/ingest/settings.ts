/** What ingestion reads from configuration: getConfig() plus the blocked-company list. */
import { blockedNames, blockKey, replaceBlocked } from "../domains/blocked-companies/service";
import { getConfig } from "../domains/config/service";
import type { Env } from "../env";
import { log } from "../lib/log";
import { loadCardNames } from "./card-names";
import { DEFAULT_JOURNAL_CURRENCY } from "./checks";
import type { IngestSettings } from "./types";

/** The blocked-company list (table blocked_companies, migration 0021), lower-cased; [] when unreadable. */
export async function loadBlockedCompanies(d1: D1Database): Promise<string[]> {
  try {
    return await blockedNames(d1);
  } catch (err) {
    log("warn", "ingest.blocked_companies_read_failed", { error: String(err) });
    return [];
  }
}

/** Replaces the list (tests and scripts; the API adds and removes one company at a time). */
export async function saveBlockedCompanies(d1: D1Database, names: string[], nowIso: string): Promise<void> {
  const rows = [...new Map(names.map((n) => [blockKey(n), n.trim()])).entries()]
    .filter(([key]) => key)
    .map(([key, company]) => ({ key, company, created_at: nowIso }));
  await replaceBlocked(d1, rows);
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
