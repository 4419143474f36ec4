/** Pure configuration rules: defaults, merge of a partial update, response assembly. No I/O. */
import { type AppConfigResponse, type AppConfigUpdateRequest, StoredConfig } from "./schemas";
import { log } from "../../lib/log";

export interface Deployment {
  demoMode: boolean;
  hostedEnabled: boolean;
  cloudAvailable: boolean;
  defaultTimezone: string;
  defaultUserId: string;
}

/** Update fields that are accepted and change nothing: storage is D1 on every deployment of this code. */
const DEPLOYMENT_FIELDS = ["storage"] as const;

const STORAGE_NAME = "d1";

export function parseStored(raw: unknown): StoredConfig {
  const parsed = StoredConfig.safeParse(raw ?? {});
  if (parsed.success) return parsed.data;
  log("warn", "stored_json.invalid", { column: "app_config.data", detail: parsed.error.issues[0]?.message });
  return StoredConfig.parse({});
}

/**
 * The keys of an update body that change nothing: not settings at all (unknown, response-only) or
 * accepted and ignored (`storage`, where its value is not this deployment's). Reported, not refused.
 */
export function ignoredKeys(raw: unknown, known: readonly string[]): string[] {
  if (!raw || typeof raw !== "object" || Array.isArray(raw)) return [];
  const body = raw as Record<string, unknown>;
  return Object.keys(body).filter(
    (k) => !known.includes(k) || (k === "storage" && body[k] != null && body[k] !== STORAGE_NAME),
  );
}

/** Applies a partial update: absent → unchanged; null → the field's default (null where nullable). */
export function applyUpdate(stored: StoredConfig, patch: AppConfigUpdateRequest): StoredConfig {
  const defaults = StoredConfig.parse({});
  const next: Record<string, unknown> = { ...stored };
  for (const [key, value] of Object.entries(patch)) {
    if (value === undefined || (DEPLOYMENT_FIELDS as readonly string[]).includes(key)) continue;
    next[key] = value === null ? defaults[key as keyof StoredConfig] : value;
  }
  return StoredConfig.parse(next);
}

export function toResponse(stored: StoredConfig, dep: Deployment): AppConfigResponse {
  return {
    ...stored,
    storage: STORAGE_NAME,
    // The deployment's public demo, or the owner's read-only switch.
    demo_mode: dep.demoMode || stored.demo_mode,
    read_only_switch: !dep.demoMode && stored.demo_mode,
    user_id: stored.user_id ?? dep.defaultUserId,
    timezone: stored.timezone ?? dep.defaultTimezone,
    hosted_enabled: dep.hostedEnabled,
    cloud_available: dep.cloudAvailable,
    cli_a_available: false,
    cli_b_available: false,
    cli_c_available: false,
    vendor_oauth_connected: false,
    vendor_oauth_email: null,
    // Default: on when a model API key is configured.
    ai_categorization_enabled: stored.ai_categorization_enabled ?? dep.hostedEnabled,
  };
}

/**
 * A user id becomes part of storage keys (R2 `budget/<user_id>/...`), so only a safe charset is
 * accepted: letters, digits and `. _ @ + -`, starting with a letter or digit, at most 64.
 */
const USER_ID_SHAPE = /^[A-Za-z0-9][A-Za-z0-9._@+-]{0,63}$/;

export function isSafeUserId(id: string): boolean {
  return USER_ID_SHAPE.test(id) && !id.includes("..");
}
