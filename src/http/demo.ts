import type { MiddlewareHandler } from "hono";
import { loadSettings, settingsFresh } from "../domains/config/service";
import { isDemo } from "../env";
import { log } from "../lib/log";
import { startAuthRead } from "./auth";
import type { AppContext, AppEnv } from "./context";
import { envelope } from "./errors";

const READ_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);
/** What the owner's read-only switch still lets through: switching it off, and signing in or out. */
const READ_ONLY_EXEMPT = [/^\/api\/v1\/config\/?$/, /^\/api\/v1\/auth\//];

const refuse = (message: string) => envelope(405, message, "METHOD_NOT_ALLOWED");

/**
 * Demo mode: the API is read-only; any other method answers 405 with the envelope. Two sources:
 * the deployment's DEMO_MODE (the public demo: every write refused, credentials ignored) and the
 * owner's stored `demo_mode` setting (credentials still required; PUT /api/v1/config turns it off).
 */
export const demoGuard: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (READ_METHODS.has(c.req.method)) return next();
  if (isDemo(c.env)) {
    c.header("Allow", "GET, HEAD, OPTIONS");
    return c.json(refuse("This is a read-only demo: only GET requests are allowed"), 405);
  }
  const path = new URL(c.req.url).pathname;
  if (READ_ONLY_EXEMPT.some((r) => r.test(path))) return next();
  // A stale isolate's settings ride in the auth middleware's one batch: started here, not read twice.
  if (!settingsFresh(c)) await startAuthRead(c);
  if (await storedReadOnly(c)) {
    c.header("Allow", "GET, HEAD, OPTIONS");
    return c.json(
      refuse('Read-only mode is on (demo_mode): PUT /api/v1/config {"demo_mode": false} turns it off'),
      405,
    );
  }
  await next();
};

/** The stored switch; unreadable settings do not lock the journal (fail-open, logged). */
async function storedReadOnly(c: AppContext): Promise<boolean> {
  try {
    return (await loadSettings(c)).demo_mode;
  } catch (err) {
    log("warn", "demo.read_only_check_failed", { error: String(err) });
    return false;
  }
}
