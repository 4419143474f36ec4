import type { MiddlewareHandler } from "hono";
import { isDemo } from "../env";
import type { AppEnv } from "./context";
import { envelope } from "./errors";

const READ_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/** Demo mode: the API is read-only; any other method answers 405 with the envelope. */
export const demoGuard: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (isDemo(c.env) && !READ_METHODS.has(c.req.method)) {
    c.header("Allow", "GET, HEAD, OPTIONS");
    return c.json(
      envelope(405, "This is a read-only demo: only GET requests are allowed", "METHOD_NOT_ALLOWED"),
      405,
    );
  }
  await next();
};
