/** Pure configuration rules: defaults, merge of a partial update, response assembly. No I/O. */
import { type AppConfigResponse, type AppConfigUpdateRequest, StoredConfig } from "./schemas";

export interface Deployment {
  demoMode: boolean;
  hostedEnabled: boolean;
  cloudAvailable: boolean;
  defaultTimezone: string;
  defaultUserId: string;
}

/** Fields whose value belongs to the deployment, not to the stored settings. */
const DEPLOYMENT_FIELDS = ["demo_mode", "storage"] as const;

export const STORAGE_NAME = "d1";

export function parseStored(raw: unknown): StoredConfig {
  const parsed = StoredConfig.safeParse(raw ?? {});
  return parsed.success ? parsed.data : StoredConfig.parse({});
}

/** Deployment-owned fields may be sent only with their current value. */
export function deploymentConflicts(patch: AppConfigUpdateRequest, dep: Deployment): string[] {
  const current = { demo_mode: dep.demoMode, storage: STORAGE_NAME };
  return DEPLOYMENT_FIELDS.filter(
    (f) => patch[f] !== undefined && patch[f] !== null && patch[f] !== current[f],
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
    demo_mode: dep.demoMode,
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
export const USER_ID_SHAPE = /^[A-Za-z0-9][A-Za-z0-9._@+-]{0,63}$/;

export function isSafeUserId(id: string): boolean {
  return USER_ID_SHAPE.test(id) && !id.includes("..");
}
