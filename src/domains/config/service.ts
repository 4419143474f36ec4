import { getDb } from "../../db";
import { flag, type Env } from "../../env";
import { validationError } from "../../lib/errors";
import type { ServiceCtx } from "../../lib/context";
import { readWithFallback, saveBackup } from "../../lib/backup";
import { readStoredConfig, storedConfigOf, storedConfigQuery, writeStoredConfig } from "./queries";
import { applyUpdate, type Deployment, isSafeUserId, parseStored, toResponse } from "./rules";
import type { AppConfigResponse, AppConfigUpdateRequest, StoredConfig } from "./schemas";

const BACKUP_NAME = "app_config";

function deployment(env: Env): Deployment {
  return {
    demoMode: flag(env.DEMO_MODE),
    hostedEnabled: Boolean(env.MODEL_API_KEY?.trim()),
    cloudAvailable: Boolean(env.FILES),
    defaultTimezone: env.DEFAULT_TIMEZONE || "America/Los_Angeles",
    defaultUserId: env.DEFAULT_USER_ID || "default",
  };
}

/**
 * Settings read from D1 are kept for SETTINGS_TTL_MS per env object: every request pays one D1 round
 * trip less (the auth middleware and the route both read them). Keyed by the env object, which the
 * runtime reuses across an isolate's requests (a caller passing a fresh env, as the tests do, reads
 * D1 every time); settings may be that many seconds stale in other isolates, never after this
 * isolate's own writes (`invalidateSettings`). A read that fell back to the R2 backup is not kept.
 */
export const SETTINGS_TTL_MS = 3_000;
const settingsCache = new WeakMap<Env, { at: number; generation: number; value: Promise<StoredConfig> }>();
let generation = 0;

/** Forgets every cached settings read in this isolate (after writing app_config). */
export function invalidateSettings(): void {
  generation++;
}

/**
 * After this isolate wrote app_config: every older copy is dropped and this env's copy is what was
 * written (so the next request, whose demo-mode check reads settings first, costs no round trip).
 */
function primeSettings(env: Env, written: StoredConfig): void {
  invalidateSettings();
  // As a read gives it back: the stored JSON, parsed.
  const value = parseStored(JSON.parse(JSON.stringify(written)));
  settingsCache.set(env, { at: Date.now(), generation, value: Promise.resolve(value) });
}

async function readSettings(env: Env): Promise<{ value: StoredConfig; fresh: boolean }> {
  const { value, source } = await readWithFallback(env.FILES, BACKUP_NAME, () =>
    readStoredConfig(getDb(env.DB)),
  );
  return { value: parseStored(value), fresh: source === "d1" };
}

function cachedFresh(env: Env, now: number): boolean {
  const hit = settingsCache.get(env);
  return (
    hit !== undefined && hit.generation === generation && now - hit.at >= 0 && now - hit.at < SETTINGS_TTL_MS
  );
}

/** Whether this isolate's settings copy is fresh (loadSettings then costs no round trip). */
export const settingsFresh = (ctx: Pick<ServiceCtx, "env">): boolean => cachedFresh(ctx.env, Date.now());

/**
 * For a caller that reads D1 in one batch anyway (the auth middleware): the stored-config query
 * when this isolate's copy is stale, else null, and `keep`, which caches the batch's rows exactly
 * as loadSettings would have (not when this isolate wrote app_config meanwhile), so the route's
 * own loadSettings costs no round trip.
 */
export function settingsBatchRead({ env }: Pick<ServiceCtx, "env">) {
  const at = Date.now();
  if (cachedFresh(env, at)) return null;
  const gen = generation;
  return {
    query: storedConfigQuery(getDb(env.DB)),
    keep(rows: { data: string }[]): void {
      if (gen !== generation) return;
      let value: StoredConfig;
      try {
        value = parseStored(storedConfigOf(rows));
      } catch {
        return; // unreadable document: loadSettings reads again (and falls back to R2)
      }
      if (cachedFresh(env, Date.now())) return;
      settingsCache.set(env, { at, generation: gen, value: Promise.resolve(value) });
    },
  };
}

/** The stored settings (D1, or the R2 backup when D1 fails), defaults filled in. A copy: callers may change it. */
export async function loadSettings({ env }: Pick<ServiceCtx, "env">): Promise<StoredConfig> {
  const now = Date.now();
  const hit = settingsCache.get(env);
  if (hit && cachedFresh(env, now)) return structuredClone(await hit.value);
  const read = readSettings(env);
  const entry = { at: now, generation, value: read.then((r) => r.value) };
  entry.value.catch(() => {}); // awaited below; a late hit awaits it again
  settingsCache.set(env, entry);
  try {
    const { value, fresh } = await read;
    if (!fresh && settingsCache.get(env) === entry) settingsCache.delete(env);
    return structuredClone(value);
  } catch (err) {
    if (settingsCache.get(env) === entry) settingsCache.delete(env);
    throw err;
  }
}

/** The effective configuration every other domain reads. */
export async function getConfig(ctx: Pick<ServiceCtx, "env">): Promise<AppConfigResponse> {
  return toResponse(await loadSettings(ctx), deployment(ctx.env));
}

/** Applies a partial update and writes it (D1, this isolate's copy, the R2 backup). */
export async function updateConfig(ctx: ServiceCtx, input: AppConfigUpdateRequest) {
  // demo_mode on an env demo: never reached (the demo refuses every write); stored otherwise.
  const dep = deployment(ctx.env);
  if (input.user_id != null && !isSafeUserId(input.user_id.trim())) {
    throw validationError([
      {
        loc: ["body", "user_id"],
        msg: "use letters, digits and . _ @ + - only (starting with a letter or digit, at most 64)",
        type: "value_error",
      },
    ]);
  }
  const before = await loadSettings(ctx);
  const after = applyUpdate(before, input);
  ctx.journal({ kind: "config", resourceId: "app", before, after });
  await store(ctx, after);
  return { response: toResponse(after, dep) };
}

async function store(ctx: ServiceCtx, data: StoredConfig): Promise<void> {
  await writeStoredConfig(getDb(ctx.env.DB), ctx.batch, data, ctx.clock().toISOString());
  primeSettings(ctx.env, data);
  await saveBackup(ctx.env.FILES, BACKUP_NAME, data);
}

/** Restores a stored image (activity revert: `journal` queues the revert's entry into the write's batch). */
export async function restoreConfig(
  ctx: ServiceCtx,
  { image, journal }: { image: StoredConfig; journal?: () => void },
): Promise<void> {
  journal?.();
  await store(ctx, parseStored(image));
}
