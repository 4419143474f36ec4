/**
 * Cross-site write protection (CSRF) and the JSON-only body rule.
 *
 * A browser attaches the session cookie (and reaches a TOFU or dev-bypass journal) whatever page
 * started the request, so a state-changing request that relies on those is accepted only when the
 * browser says it came from this service itself or from a CORS_ALLOWED_ORIGINS entry: the
 * `Origin` header when present, else `Sec-Fetch-Site` (`same-origin` or `none`, a typed URL).
 * A request with neither header is not from a browser page (curl, scripts) and cannot carry a
 * forged cross-site intent. Bearer-token requests are never affected: a page cannot attach one.
 */
import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "./context";
import { corsPolicy } from "./cors";
import { ApiError } from "./errors";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);
/** Principals that a browser brings along on its own (ambient credentials). */
const AMBIENT = new Set(["session", "tofu", "dev-bypass"]);

const clean = (origin: string) => origin.trim().replace(/\/+$/, "").toLowerCase();

/** Whether a state-changing request with ambient credentials may proceed. */
export function sameSiteWriteAllowed(
  requestUrl: string,
  origin: string | undefined,
  secFetchSite: string | undefined,
  allowedOrigins: ReadonlySet<string>,
): boolean {
  if (origin !== undefined) {
    const o = clean(origin);
    if (o === "null" || o === "") return false;
    return o === clean(new URL(requestUrl).origin) || allowedOrigins.has(o);
  }
  if (secFetchSite !== undefined) return secFetchSite === "same-origin" || secFetchSite === "none";
  return true;
}

/** 403 for a cross-site write that relies on a cookie, TOFU or the dev bypass. */
export const sameOriginWrites: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (!SAFE_METHODS.has(c.req.method) && AMBIENT.has(c.get("principal").kind)) {
    const allowed = sameSiteWriteAllowed(
      c.req.url,
      c.req.header("origin"),
      c.req.header("sec-fetch-site"),
      corsPolicy(c.env.CORS_ALLOWED_ORIGINS).origins,
    );
    if (!allowed) {
      throw new ApiError(
        403,
        "Cross-site request refused: this write relies on browser credentials and did not come from this journal",
        "CROSS_SITE_REQUEST",
      );
    }
  }
  await next();
};

const JSON_TYPE = /^application\/([a-z0-9.+-]+\+)?json\s*(;|$)/i;
const MULTIPART_TYPE = /^multipart\/form-data\s*;/i;

export const isJsonContentType = (value: string | undefined): boolean => JSON_TYPE.test(value ?? "");

/**
 * A body must say what it is: JSON (`application/json`) or, for uploads, `multipart/form-data`.
 * Anything else (`text/plain`, url-encoded forms: what a foreign page can send without a preflight)
 * is 415 before any handler reads it. The JSON routes additionally refuse multipart (src/http/route.ts).
 */
export const typedBodies: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (!SAFE_METHODS.has(c.req.method) && hasBody(c.req.raw)) {
    const type = c.req.header("content-type");
    if (!isJsonContentType(type) && !MULTIPART_TYPE.test(type ?? "")) {
      throw new ApiError(415, "Send the body as application/json (or multipart/form-data for uploads)");
    }
  }
  await next();
};

function hasBody(req: Request): boolean {
  const length = req.headers.get("content-length");
  if (length !== null) return Number(length) > 0;
  return req.body !== null;
}
