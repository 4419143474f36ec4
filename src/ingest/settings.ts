/** What ingestion reads from configuration: getConfig() plus the blocked-company list. */
import { getConfig } from "../domains/config/service";
import type { Env } from "../env";
import { log } from "../lib/log";
import type { IngestSettings } from "./types";

export const BLOCKED_COMPANIES_KEY = "blocked_companies";

/** kv_state 'blocked_companies' holds a JSON array of names (config/blocked_companies.json format). */
export async function loadBlockedCompanies(db: D1Database): Promise<string[]> {
  try {
    const raw = await db
      .prepare("SELECT value FROM kv_state WHERE key = ?")
      .bind(BLOCKED_COMPANIES_KEY)
      .first<string>("value");
    const list = raw ? (JSON.parse(raw) as unknown) : [];
    return Array.isArray(list) ? list.filter((x): x is string => typeof x === "string") : [];
  } catch (err) {
    log("warn", "ingest.blocked_companies_read_failed", { error: String(err) });
    return [];
  }
}

export async function saveBlockedCompanies(db: D1Database, names: string[], nowIso: string): Promise<void> {
  await db
    .prepare(
      `INSERT INTO kv_state (key, value, updated_at) VALUES (?1, ?2, ?3)
       ON CONFLICT (key) DO UPDATE SET value = ?2, updated_at = ?3`,
    )
    .bind(BLOCKED_COMPANIES_KEY, JSON.stringify(names), nowIso)
    .run();
}

export async function loadIngestSettings(env: Env): Promise<IngestSettings> {
  const [config, blocked] = await Promise.all([getConfig({ ctx: { env } }), loadBlockedCompanies(env.DB)]);
  return {
    timezone: config.timezone,
    userId: config.user_id,
    aiCategorizationEnabled: config.ai_categorization_enabled,
    aiExtractionEnabled: config.ai_extraction_enabled,
    blockedCompanies: blocked,
  };
}
