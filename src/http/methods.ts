/**
 * 405 for a wrong method on a known path: when no route answers, the routes
 * registered for the same path under other methods decide between 404 (no such path) and 405 with
 * `Allow` listing the methods that path has.
 */
import type { Context } from "hono";
import { envelope } from "./errors";

interface RouteLike {
  method: string;
  path: string;
}

/** A Hono path pattern as a regular expression (`:name`, `:name{re}`, `*`). */
function pathPattern(path: string): RegExp {
  let out = "";
  for (let i = 0; i < path.length; ) {
    const ch = path[i]!;
    if (ch === ":") {
      const m = /^:[A-Za-z0-9_]+(\{([^}]*)\})?(\?)?/.exec(path.slice(i));
      if (m) {
        out += m[2] ? `(?:${m[2]})` : "[^/]+";
        if (m[3]) out += "?";
        i += m[0].length;
        continue;
      }
    }
    out += ch === "*" ? ".*" : ch.replace(/[.+?^${}()|[\]\\]/g, "\\$&");
    i++;
  }
  return new RegExp(`^${out}$`);
}

const ORDER = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"];

/** The methods some route answers for `path` (HEAD wherever GET is); empty when the path is unknown. */
function methodsFor(routes: readonly RouteLike[], path: string): string[] {
  const found = new Set<string>();
  for (const r of routes) {
    const m = r.method.toUpperCase();
    if (m === "ALL" || !ORDER.includes(m)) continue;
    if (pathPattern(r.path).test(path)) {
      found.add(m);
      if (m === "GET") found.add("HEAD");
    }
  }
  return ORDER.filter((m) => found.has(m));
}

/** The 405 answer when `path` is known under other methods, else null (a real 404). */
export function methodNotAllowed(routes: readonly RouteLike[], c: Context): Response | null {
  const path = new URL(c.req.url).pathname;
  const allowed = methodsFor(routes, path);
  if (allowed.length === 0 || allowed.includes(c.req.method.toUpperCase())) return null;
  const allow = [...allowed, "OPTIONS"].join(", ");
  c.header("Allow", allow);
  return c.json(
    envelope(405, `${c.req.method} is not allowed on ${path}; allowed: ${allow}`, "METHOD_NOT_ALLOWED"),
    405,
  );
}
