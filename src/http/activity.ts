/**
 * The HTTP door of the activity ledger: every mutating /api/v1 call gets a ledger whose envelope is
 * the matched route's operationId, method and path. Verbs journal through their service context
 * (`ctx.journal` + `ctx.batch`, src/domains/activity/journal.ts), never the route files (checked by
 * test/unit/architecture/journal-in-verbs.test.ts); before the response, entries no batch took are
 * written and a successful write no verb journaled gets one envelope-only entry.
 * The ledger never fails the request. Reverters live in src/domains/activity/reverters.ts.
 */
import type { MiddlewareHandler } from "hono";
import { getDb } from "../db";
import { matchedRoutes } from "hono/route";
import { openLedger } from "../domains/activity/journal";
import { normalizePath } from "./auth";
import type { AppContext, AppEnv } from "./context";

/** Successful writes that are not journaled: the session routes and reads that use a write verb. */
export const NOT_JOURNALED: ReadonlySet<string> = new Set([
  "POST /api/v1/auth/login",
  "POST /api/v1/auth/logout",
  "POST /api/v1/auth/set-password",
  "POST /api/v1/auth/sign-out-all",
  "POST /api/v1/transactions/search-by-filter",
  "POST /api/v1/data/export",
  "POST /api/v1/data/export/jobs",
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

/** The ledger middleware; `index` is read lazily (routes register after the middleware). */
export function activityLedger(index: () => OperationIndex): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const method = c.req.method.toUpperCase();
    const path = normalizePath(new URL(c.req.url).pathname);
    if (!isJournaled(method, path)) return next();
    let opId: string | undefined;
    const envelope = () => {
      opId ??= operationId(c, index(), method, path);
      return { principal: c.get("principal"), operationId: opId, method, path };
    };
    const ledger = openLedger(getDb(c.env.DB), c.get("clock"), envelope);
    c.set("ledger", ledger);
    let ok = false;
    try {
      await next();
      ok = c.res.status >= 200 && c.res.status < 300;
      // A successful write no verb journaled still gets its envelope-only entry (never a second one).
      if (ok && ledger.journaled === 0) ledger.journal({});
    } finally {
      // Before the response: entries no batch took are written now (dropped when the call failed).
      await ledger.settle(ok);
    }
    // Only an entry that was written is offered for Undo (a guarded write may have dropped its own).
    const undo = ledger.entries.find((e) => e.reversible === 1);
    if (undo) exposeEntryId(c, undo.id);
  };
}

/** Response header naming a reversible write's ledger entry, so the client's "saved" toast can offer Undo. */
const ACTIVITY_ID_HEADER = "X-Activity-Id";

/** Best effort: a response with immutable headers simply goes without (never fails the request). */
function exposeEntryId(c: AppContext, id: string): void {
  try {
    c.res.headers.set(ACTIVITY_ID_HEADER, id);
  } catch {
    // Immutable headers (a passed-through fetch response): no Undo offer for this write.
  }
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
