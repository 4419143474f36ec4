/**
 * The activity ledger: a middleware journaling every successful mutating /api/v1 call (off the
 * response path, never reading bodies, never failing the request) and the staging API handlers use
 * to attach before/after images. Reverters live in src/domains/activity/reverters.ts.
 */
import type { MiddlewareHandler } from "hono";
import { matchedRoutes } from "hono/route";
import { type ActivityInsert, insertEntry } from "../domains/activity/queries";
import { describeChange, type ImageLike, imagesRejection } from "../domains/activity/rules";
import { log } from "../lib/log";
import { normalizePath } from "./auth";
import { type AppContext, type AppEnv, serviceCtx } from "./context";

/** Successful writes that are not journaled: the session routes and reads that use a write verb. */
export const NOT_JOURNALED: ReadonlySet<string> = new Set([
  "POST /api/v1/auth/login",
  "POST /api/v1/auth/logout",
  "POST /api/v1/auth/set-password",
  "POST /api/v1/auth/sign-out-all",
  "POST /api/v1/transactions/search-by-filter",
  "POST /api/v1/data/export",
  "POST /api/v1/data/import/preview",
  "POST /api/v1/config/test-model-key",
  "POST /api/v1/config/test-object-backup",
]);

const READS = new Set(["GET", "HEAD", "OPTIONS"]);

/** Whether a request can become an entry (its status is checked after the handler ran). */
export function isJournaled(method: string, path: string): boolean {
  const m = method.toUpperCase();
  return !READS.has(m) && path.startsWith("/api/v1/") && !NOT_JOURNALED.has(`${m} ${normalizePath(path)}`);
}

export interface StagedImages {
  /** Resource kind: picks the reverter (domains/activity/reverters.ts). */
  kind: string;
  resourceId: string;
  /** Pre-mutation image: `{}` for a create. */
  before: ImageLike | null;
  /** The written value: null for a delete. */
  after: ImageLike | null;
  summary?: string;
  /** Rows the images cover (bulk edits); above 200 the entry is kept envelope-only. */
  rows?: number;
  /** false for entries that keep images for transparency only (a revert's own entry). */
  reversible?: boolean;
}

interface LedgerState {
  id: string;
  staged?: StagedImages;
  note?: { resourceId?: string; summary?: string };
}

const states = new WeakMap<object, LedgerState>();

/** Attaches before/after images to this request's entry, making it reversible. */
export function stageImages(c: AppContext, images: StagedImages): void {
  const s = states.get(c);
  if (s) s.staged = images;
}

/** Names the resource and a summary of an envelope-only entry (no images, not reversible). */
export function annotateActivity(c: AppContext, note: { resourceId?: string; summary?: string }): void {
  const s = states.get(c);
  if (s) s.note = note;
}

/** The id this request's entry will get (known before the handler runs), or null when not journaled. */
export function activityEntryId(c: AppContext): string | null {
  return states.get(c)?.id ?? null;
}

export function newEntryId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(12));
  return `act_${Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("")}`;
}

/** `"METHOD /openapi/{path}"` → operationId, from the app's OpenAPI registry. */
export type OperationIndex = ReadonlyMap<string, string>;

/** The operationId of the route that answered: chanfana's schema, else method and path. */
function operationId(c: AppContext, index: OperationIndex, method: string, path: string): string {
  // The first matching route is the one Hono ran (a later `/:id` pattern may also match a static path).
  const route = matchedRoutes(c).find((r) => r.method === method && !r.path.includes("*"));
  if (route) {
    const pattern = normalizePath(route.path.replaceAll(/:(\w+)/g, "{$1}"));
    const id = index.get(`${method} ${pattern}`);
    if (id) return id;
  }
  return `${method} ${path}`;
}

function buildRow(c: AppContext, s: LedgerState, opId: string, method: string, path: string): ActivityInsert {
  const p = c.get("principal");
  const staged = s.staged;
  const rejected = staged ? imagesRejection(staged.rows ?? 1, staged.before, staged.after) : null;
  const keep = staged !== undefined && rejected === null;
  let summary = s.note?.summary ?? null;
  if (staged) summary = staged.summary ?? describeChange(staged.kind, staged.before, staged.after);
  if (rejected) summary = `${summary} (images omitted: ${rejected})`;
  return {
    id: s.id,
    ts: c.get("clock")().toISOString(),
    principal_kind: p.kind,
    principal_id: p.id,
    principal_label: p.label,
    operation_id: opId,
    method,
    path,
    resource_kind: staged?.kind ?? null,
    resource_id: staged?.resourceId ?? s.note?.resourceId ?? null,
    summary,
    before_json: keep ? JSON.stringify(staged.before) : null,
    after_json: keep ? JSON.stringify(staged.after) : null,
    reversible: keep && staged.reversible !== false ? 1 : 0,
    reverted_at: null,
    reverted_by: null,
  };
}

/** The ledger middleware; `index` is read lazily (routes register after the middleware). */
export function activityLedger(index: () => OperationIndex): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const method = c.req.method.toUpperCase();
    const path = normalizePath(new URL(c.req.url).pathname);
    if (!isJournaled(method, path)) return next();
    const state: LedgerState = { id: newEntryId() };
    states.set(c, state);
    await next();
    try {
      if (c.res.status < 200 || c.res.status >= 300) return;
      const row = buildRow(c, state, operationId(c, index(), method, path), method, path);
      if (row.reversible === 1) exposeEntryId(c, row.id);
      const fail = (err: unknown) =>
        log("error", "activity.capture_failed", { entry: row.id, path, error: String(err) });
      serviceCtx(c).waitUntil(insertEntry(c.env.DB, row).catch(fail));
    } catch (err) {
      log("error", "activity.capture_failed", { path, error: String(err) });
    }
  };
}

/** Response header naming a reversible write's ledger entry, so the client's "saved" toast can offer Undo. */
export const ACTIVITY_ID_HEADER = "X-Activity-Id";

/** Best effort: a response with immutable headers simply goes without (never fails the request). */
function exposeEntryId(c: AppContext, id: string): void {
  try {
    c.res.headers.set(ACTIVITY_ID_HEADER, id);
  } catch {
    // Immutable headers (a passed-through fetch response): no Undo offer for this write.
  }
}

/**
 * Journals one write made inside a request the middleware does not journal (an MCP tool call on
 * POST /mcp): its own entry, with the caller's principal and `operationId`, off the response path.
 * Returns the entry id (one request may make several entries, e.g. a category and its rule).
 */
export function recordActivity(
  c: AppContext,
  operationId: string,
  entry: { staged?: StagedImages; note?: { resourceId?: string; summary?: string } },
): string {
  const state: LedgerState = { id: newEntryId(), ...entry };
  const path = normalizePath(new URL(c.req.url).pathname);
  const row = buildRow(c, state, operationId, c.req.method.toUpperCase(), path);
  serviceCtx(c).waitUntil(
    insertEntry(c.env.DB, row).catch((err) =>
      log("error", "activity.capture_failed", { entry: row.id, path, error: String(err) }),
    ),
  );
  return state.id;
}

/** Builds the operation index from chanfana's registry definitions. */
export function operationIndexFrom(definitions: readonly unknown[]): OperationIndex {
  const map = new Map<string, string>();
  for (const d of definitions as {
    type?: string;
    route?: { method: string; path: string; operationId?: string };
  }[]) {
    if (d.type !== "route" || !d.route?.operationId) continue;
    map.set(`${d.route.method.toUpperCase()} ${normalizePath(d.route.path)}`, d.route.operationId);
  }
  return map;
}
