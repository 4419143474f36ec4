/**
 * CORS from CORS_ALLOWED_ORIGINS (comma-separated origins, or `*`); default: none (a trusted local
 * port would trust any local app on it with the owner's cookie; `npm run dashboard:dev` proxies the
 * API, so its pages are same-origin). Credentials go to listed origins only, never with `*`.
 */
import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "./context";

const ALLOW_METHODS = "GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS";
const DEFAULT_ALLOW_HEADERS = "Authorization, Content-Type";
const EXPOSE_HEADERS = "Retry-After, Content-Disposition, X-Activity-Id, X-Config-Ignored";
const MAX_AGE_S = "600";

interface CorsPolicy {
  any: boolean;
  origins: ReadonlySet<string>;
}

const clean = (origin: string) => origin.trim().replace(/\/+$/, "").toLowerCase();

/** Parses the variable; unset or blank allows no origin. */
export function corsPolicy(raw: string | undefined): CorsPolicy {
  const list = (raw ?? "").split(",").map(clean).filter(Boolean);
  return { any: list.includes("*"), origins: new Set(list.filter((o) => o !== "*")) };
}

/** The Access-Control-Allow-Origin value for a request origin, and whether credentials go with it. */
export function allowOrigin(
  policy: CorsPolicy,
  origin: string,
): { value: string; credentials: boolean } | null {
  if (policy.origins.has(clean(origin))) return { value: origin, credentials: true };
  if (policy.any) return { value: "*", credentials: false };
  return null;
}

function corsHeaders(policy: CorsPolicy, origin: string | undefined): Record<string, string> {
  const allowed = origin ? allowOrigin(policy, origin) : null;
  const h: Record<string, string> = {};
  if (allowed) {
    h["Access-Control-Allow-Origin"] = allowed.value;
    if (allowed.credentials) h["Access-Control-Allow-Credentials"] = "true";
  }
  return h;
}

export const cors: MiddlewareHandler<AppEnv> = async (c, next) => {
  const policy = corsPolicy(c.env.CORS_ALLOWED_ORIGINS);
  const origin = c.req.header("origin");
  const headers = corsHeaders(policy, origin);
  const varyOrigin = policy.origins.size > 0;

  if (c.req.method === "OPTIONS" && origin && c.req.header("access-control-request-method")) {
    const res = new Headers(headers);
    if (headers["Access-Control-Allow-Origin"]) {
      res.set("Access-Control-Allow-Methods", ALLOW_METHODS);
      res.set(
        "Access-Control-Allow-Headers",
        c.req.header("access-control-request-headers") || DEFAULT_ALLOW_HEADERS,
      );
      res.set("Access-Control-Max-Age", MAX_AGE_S);
    }
    if (varyOrigin) res.set("Vary", "Origin, Access-Control-Request-Headers");
    return new Response(null, { status: 204, headers: res });
  }

  await next();
  for (const [k, v] of Object.entries(headers)) c.header(k, v);
  if (headers["Access-Control-Allow-Origin"]) c.header("Access-Control-Expose-Headers", EXPOSE_HEADERS);
  if (varyOrigin) c.header("Vary", "Origin", { append: true });
};
