/**
 * Authentication in one place: public routes, per-scope path allowlists and principal
 * resolution (bearer token → session cookie → dev bypass → trust on first use).
 */
import type { MiddlewareHandler } from "hono";
import { getDb } from "../db";
import { flag, isDemo } from "../env";
import { parseBearer, sessionCookieValues, type TokenScope } from "../domains/auth/rules";
import { type BrowserAuth, requestBrowserAuth, requestToken } from "../domains/auth/request";
import { stampSessionSeenAt } from "../domains/auth/sessions";
import { stampLastUsed } from "../domains/auth/tokens";
import { loadSettings } from "../domains/config/service";
import { log } from "../lib/log";
import { type McpProps, principalScope, stampAppUse } from "../domains/connected-apps/grant";
import { type AppContext, type AppEnv, type Principal, serviceCtx } from "./context";
import { ApiError } from "./errors";

/** Reachable without credentials (SPEC.md rule 1, plus login and logout themselves). */
const PUBLIC_PATHS: ReadonlySet<string> = new Set([
  "/api/v1/health",
  "/openapi.json",
  "/openapi.yaml",
  "/docs",
  "/redoc",
  "/llms.txt",
  "/api/v1/auth/login",
  "/api/v1/auth/logout",
]);

/** Reached with a bearer token only: no session cookie, dev bypass or TOFU (the MCP endpoint). */
const TOKEN_ONLY_PATHS: ReadonlySet<string> = new Set(["/mcp"]);

interface AllowRule {
  methods: readonly string[] | "*";
  path: RegExp;
}

const READ_METHODS = ["GET", "HEAD"] as const;
const PUBLIC_DOCS = /^\/(openapi\.json|openapi\.yaml|docs|redoc|llms\.txt)$/;

/** What each token scope may do: `read` is GET on /api/v1/* (and the public documents) only. */
export const SCOPE_ALLOWLISTS: Record<TokenScope, readonly AllowRule[]> = {
  read: [
    { methods: READ_METHODS, path: /^\/api\/v1\// },
    { methods: READ_METHODS, path: PUBLIC_DOCS },
    // MCP speaks JSON-RPC over POST: every scope reaches it, and its tools enforce the scope.
    { methods: "*", path: /^\/mcp$/ },
  ],
  "read+write": [{ methods: "*", path: /^\// }],
};

export function normalizePath(path: string): string {
  return path.length > 1 ? path.replace(/\/+$/, "") : path;
}

export function isPublicPath(path: string): boolean {
  return PUBLIC_PATHS.has(normalizePath(path));
}

export function scopeAllows(scope: TokenScope, method: string, path: string): boolean {
  const m = method.toUpperCase();
  return (SCOPE_ALLOWLISTS[scope] ?? []).some(
    (r) => (r.methods === "*" || r.methods.includes(m)) && r.path.test(path),
  );
}

const TOFU: Principal = { kind: "tofu", id: null, label: null, scope: null };
const DEV_BYPASS: Principal = { kind: "dev-bypass", id: null, label: null, scope: null };

function isLoopbackHost(hostname: string): boolean {
  const h = hostname.replace(/^\[|\]$/g, "").toLowerCase();
  return h === "localhost" || h.endsWith(".localhost") || h === "::1" || /^127(\.\d{1,3}){3}$/.test(h);
}

const isLoopbackIp = (ip: string) =>
  /^127(\.\d{1,3}){3}$/.test(ip) || ip === "::1" || ip === "::ffff:127.0.0.1";

/**
 * Whether a request really comes from this machine (SPEC: "fully open on loopback"). The Host
 * header alone is the caller's word, so also: the connecting address (`CF-Connecting-IP`, set by
 * wrangler dev from the socket and by Cloudflare from the real client: on Cloudflare nothing is
 * loopback) must be loopback, and a server that `npm start` bound beyond loopback (`--ip 0.0.0.0`,
 * which sets PUBLIC_BIND) never counts as local, since wrangler dev keeps a client-sent
 * CF-Connecting-IP.
 */
export function isLocalRequest(env: { PUBLIC_BIND?: string }, request: Request): boolean {
  if (flag(env.PUBLIC_BIND)) return false;
  if (!isLoopbackHost(new URL(request.url).hostname)) return false;
  const ip = request.headers.get("cf-connecting-ip");
  return ip === null || isLoopbackIp(ip.trim().toLowerCase());
}

function unauthorized(c: AppContext, message: string): ApiError {
  c.header("WWW-Authenticate", 'Bearer realm="finance-journal"');
  return new ApiError(401, message);
}

/**
 * The request's one auth read (the bearer token's row, or the auth settings with the cookie's
 * sessions; with the configuration when this isolate's copy is stale), run once per request: the
 * read-only check (src/http/demo.ts), which runs before authentication, may start it so its
 * settings come from the same batch.
 */
const authReads = new WeakMap<Request, Promise<unknown>>();
function authRead<T>(c: AppContext, read: () => Promise<T>): Promise<T> {
  let p = authReads.get(c.req.raw) as Promise<T> | undefined;
  if (!p) {
    p = read();
    authReads.set(c.req.raw, p);
  }
  return p;
}

const tokenRead = (c: AppContext, raw: string) => authRead(c, () => requestToken(c.env, raw));

function browserRead(c: AppContext): Promise<BrowserAuth & { now: Date }> {
  return authRead(c, async () => {
    const now = c.get("clock")();
    // Settings, session rows and (when stale) the configuration: one D1 round trip.
    const values = sessionCookieValues(c.req.header("cookie"));
    return { ...(await requestBrowserAuth(c.env, values, now)), now };
  });
}

/**
 * Starts the read `authenticate` will make for this request (none for a public path, a malformed
 * bearer value or the demo); its failure is left for `authenticate` to answer.
 */
export async function startAuthRead(c: AppContext): Promise<void> {
  if (isDemo(c.env)) return;
  const path = normalizePath(new URL(c.req.url).pathname);
  if (TOKEN_ONLY_PATHS.has(path)) return;
  const header = c.req.header("authorization");
  const raw = header === undefined ? null : parseBearer(header);
  const read =
    header !== undefined ? (raw ? tokenRead(c, raw) : null) : isPublicPath(path) ? null : browserRead(c);
  await read?.catch(() => undefined);
}

/** SPEC.md rule 2: any Authorization header is validated, and the token's scope is enforced. */
async function tokenPrincipal(c: AppContext, header: string, path: string): Promise<Principal> {
  const raw = parseBearer(header);
  if (!raw) throw unauthorized(c, "Authorization must be `Bearer fin_...`");
  const token = await tokenRead(c, raw).catch((err) => {
    log("warn", "auth.token_lookup_failed", { error: String(err) });
    throw new ApiError(503, "Tokens cannot be checked right now; retry");
  });
  if (!token) throw unauthorized(c, "Unknown or revoked token");
  if (!scopeAllows(token.scope, c.req.method, path)) {
    throw new ApiError(403, `A ${token.scope} token may not ${c.req.method} ${path}`);
  }
  const ctx = serviceCtx(c);
  ctx.waitUntil(
    stampLastUsed(getDb(c.env.DB), token, ctx.clock()).catch((err) =>
      log("warn", "auth.stamp_failed", { id: token.id, error: String(err) }),
    ),
  );
  return { kind: "token", id: token.id, label: token.label, scope: token.scope };
}

/**
 * The live session of the cookies (every `app_session` value is tried: hono's getCookie returns
 * one, and a sibling subdomain can plant one that comes first). Its last use is stamped off the
 * response path, at most every 15 minutes.
 */
function sessionPrincipal(c: AppContext, { session }: BrowserAuth, now: Date): Principal | null {
  if (!session) return null;
  serviceCtx(c).waitUntil(
    stampSessionSeenAt(getDb(c.env.DB), session, now).catch((err) =>
      log("warn", "auth.session_stamp_failed", { error: String(err) }),
    ),
  );
  return { kind: "session", id: session.id, label: null, scope: null };
}

/** No header: a live session cookie, else the dev bypass, else TOFU until a password is set. */
async function browserPrincipal(c: AppContext): Promise<Principal> {
  const read = await browserRead(c);
  const { auth, now } = read;
  const session = sessionPrincipal(c, read, now);
  if (session) return session;
  // The dev bypass is honoured only for requests addressed to this machine (wrangler dev), so a
  // flag left on in a deployed Worker never opens it to the internet.
  const local = isLocalRequest(c.env, c.req.raw);
  if (local && (await loadSettings(c)).auth_bypass_for_dev) {
    return DEV_BYPASS;
  }
  if (auth.passwordSet && auth.degraded)
    throw new ApiError(503, "Authentication state is unavailable; retry");
  if (auth.passwordSet) throw unauthorized(c, "Log in or send `Authorization: Bearer fin_...`");
  // SPEC: without a password the API is open *on loopback*. A deployed Worker is on the internet,
  // so there the first password is set with a setup token from `npm run token -- issue --remote`
  // (ALLOW_REMOTE_TOFU=true restores the open behaviour, e.g. behind Cloudflare Access).
  if (!local && !flag(c.env.ALLOW_REMOTE_TOFU)) {
    const err = unauthorized(
      c,
      "This journal has no password yet. Run `npm run token -- issue --remote --label setup` and use the " +
        "token to set one (the dashboard's sign-in page asks for it).",
    );
    throw new ApiError(err.status, err.message, err.code, { setup_required: true });
  }
  return TOFU;
}

/**
 * An OAuth access token on /mcp: the provider in front (src/oauth/front.ts) has already checked it
 * and left its grant on `ctx.props`/`ctx.auth`. Null for anything else (fin_ tokens included).
 */
function oauthPrincipal(c: AppContext, path: string): Principal | null {
  if (!TOKEN_ONLY_PATHS.has(path)) return null;
  let ec: { props?: unknown; auth?: { token?: string; scope?: string[] } };
  try {
    ec = c.executionCtx as typeof ec;
  } catch {
    return null;
  }
  const props = ec.props as McpProps | undefined;
  if (props?.kind !== "oauth" || !ec.auth?.token) return null;
  const grantId = ec.auth.token.split(":")[1] ?? null;
  if (grantId) serviceCtx(c).waitUntil(stampAppUse(c.env, grantId, c.get("clock")()));
  return { kind: "oauth", id: grantId, label: props.clientName, scope: principalScope(ec.auth.scope ?? []) };
}

/** Resolves `c.var.principal` or answers 401/403. The demo accepts and ignores any header. */
export const authenticate: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (isDemo(c.env)) return next();
  const path = normalizePath(new URL(c.req.url).pathname);
  const header = c.req.header("authorization");
  const oauth = oauthPrincipal(c, path);
  if (oauth) c.set("principal", oauth);
  else if (header !== undefined) c.set("principal", await tokenPrincipal(c, header, path));
  else if (TOKEN_ONLY_PATHS.has(path)) throw unauthorized(c, "Send `Authorization: Bearer fin_...`");
  else if (!isPublicPath(path)) c.set("principal", await browserPrincipal(c));
  await next();
};
