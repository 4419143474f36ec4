import { deleteCookie, setCookie } from "hono/cookie";
import type { AppContext } from "../../http/context";
import { ApiError } from "../../http/errors";
import { domainRoute, ok, json, route } from "../../http/route";
import {
  DEVICE_COOKIE,
  DEVICE_COOKIE_PATH,
  DEVICE_TTL_S,
  SESSION_COOKIE,
  SESSION_TTL_S,
  cookieValues,
  sessionCookieValues,
} from "./rules";
import { type ClientInfo, signOutSession, listSessions } from "./sessions";
import {
  AuthResponse,
  WebappSessionEndResponse,
  ApiTokenIssueRequest,
  ApiTokenIssueResponse,
  WebappSessionListResponse,
  ApiTokenListResponse,
  LoginIn,
  ApiTokenRevokeResponse,
  SetPasswordIn,
  SignOutAllIn,
} from "./schemas";
import { z } from "zod";
import { contentJson } from "chanfana";
import { issueToken, listTokens, revokeTokenById } from "./tokens";
import { login, logout, deviceAfterSetPassword, setPassword, signOutAll } from "./service";

export const AuthRoute = domainRoute("auth");

/** The `{status}` answer every session route gives. */
export const authOk = (description: string) => ok(AuthResponse, description);

/** Secure when the caller reached us over https (directly or through a TLS-terminating proxy). */
function isHttps(c: AppContext): boolean {
  return new URL(c.req.url).protocol === "https:" || c.req.header("x-forwarded-proto") === "https";
}

/** `app_session`: HttpOnly, SameSite=Lax, Secure on https, 30 days. */
export function setSessionCookie(c: AppContext, value: string): void {
  setCookie(c, SESSION_COOKIE, value, {
    path: "/",
    httpOnly: true,
    sameSite: "Lax",
    secure: isHttps(c),
    maxAge: SESSION_TTL_S,
  });
}

/** `app_device`: HttpOnly, SameSite=Strict, sent only to the auth routes, about a year. */
export function setDeviceCookie(c: AppContext, value: string): void {
  setCookie(c, DEVICE_COOKIE, value, {
    path: DEVICE_COOKIE_PATH,
    httpOnly: true,
    sameSite: "Strict",
    secure: isHttps(c),
    maxAge: DEVICE_TTL_S,
  });
}

/** The device cookie values the request carries. */
export const deviceCookies = (c: AppContext) => cookieValues(c.req.header("cookie"), DEVICE_COOKIE);

export function clearSessionCookie(c: AppContext): void {
  deleteCookie(c, SESSION_COOKIE, { path: "/", httpOnly: true, sameSite: "Lax", secure: isHttps(c) });
}

/** Runs a password-checking verb; a lockout (429) also gets the Retry-After header. */
export async function withRetryAfter<T>(c: AppContext, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    if (err instanceof ApiError && err.status === 429) {
      c.header("Retry-After", String(err.details?.retry_after_seconds ?? 60));
    }
    throw err;
  }
}

/** The client as the request describes it (CF-Connecting-IP is set by Cloudflare / wrangler dev). */
export function clientInfo(c: AppContext): ClientInfo {
  return {
    ip: c.req.header("cf-connecting-ip")?.trim() || null,
    userAgent: c.req.header("user-agent")?.trim() || null,
  };
}

export const EndWebappSession = route(AuthRoute, {
  operationId: "endWebappSession",
  summary: "Sign one browser session out (its cookie gets 401 from then on)",
  request: { params: z.object({ session_id: z.string().min(1).max(100) }) },
  responses: {
    "200": json("Signed out", WebappSessionEndResponse),
  },
  handle: async (ctx, { params }) => {
    await signOutSession(ctx, params.session_id);
    return { id: params.session_id, status: "signed_out" as const };
  },
});

export const IssueApiToken = route(AuthRoute, {
  operationId: "issueApiToken",
  summary: "Issue an API token; the raw value is in this response only",
  request: { body: { ...contentJson(ApiTokenIssueRequest), required: true } },
  responses: {
    "201": json("The new token, raw value included once", ApiTokenIssueResponse),
  },
  handle: async (ctx, { body }, c) => c.json(await issueToken(ctx, body), 201),
});

export const ListWebappSessions = route(AuthRoute, {
  operationId: "listWebappSessions",
  summary: "List active browser sessions (the caller's own marked current)",
  responses: {
    "200": json("Active sessions, oldest first", WebappSessionListResponse),
  },
  handle: async (ctx) => ({ sessions: await listSessions(ctx) }),
});

export const ListApiTokens = route(AuthRoute, {
  operationId: "listApiTokens",
  summary: "List live API tokens (id, label, scope, created and last-used time; never a token)",
  responses: {
    "200": json("Live tokens", ApiTokenListResponse),
  },
  handle: async (ctx) => ({ tokens: await listTokens(ctx) }),
});

export const WebappLogin = route(AuthRoute, {
  operationId: "webappLogin",
  summary: "Issue a webapp session cookie",
  description:
    "Public. Sets the signed `app_session` cookie (HttpOnly, SameSite=Lax, Secure on https, 30 days). " +
    "Wrong password: 401; repeated wrong passwords lock login for a growing window (429 RATE_LIMITED " +
    "with Retry-After); no password set yet: 409. Also sets `app_device` (HttpOnly, SameSite=Strict, path " +
    "/api/v1/auth): a later login from this browser is throttled on its own, so strangers' guesses never " +
    "lock it out.",
  security: [],
  request: { body: { ...contentJson(LoginIn), required: true } },
  responses: authOk("Logged in; the session cookie is set"),
  handle: async (ctx, { body }, c) => {
    const { session, device } = await withRetryAfter(c, () =>
      login(ctx, { input: body, client: clientInfo(c), devices: deviceCookies(c) }),
    );
    setSessionCookie(c, session);
    setDeviceCookie(c, device);
    return { status: "logged_in" };
  },
});

/** Ends the session server-side too: the same cookie replayed later is refused. */
export const WebappLogout = route(AuthRoute, {
  operationId: "webappLogout",
  summary: "Clear the caller's webapp session cookie",
  description: "Public: clearing a cookie needs no credentials. Other sessions stay signed in.",
  security: [],
  responses: authOk("The session cookie is cleared"),
  handle: async (ctx, _, c) => {
    await logout(ctx, sessionCookieValues(c.req.header("cookie")));
    clearSessionCookie(c);
    return { status: "logged_out" };
  },
});

export const RevokeApiToken = route(AuthRoute, {
  operationId: "revokeApiToken",
  summary: "Revoke an API token permanently (its next request gets 401)",
  request: { params: z.object({ token_id: z.string().min(1).max(100) }) },
  responses: {
    "200": json("Revoked", ApiTokenRevokeResponse),
  },
  handle: async (ctx, { params }) => {
    await revokeTokenById(ctx, params.token_id);
    return { id: params.token_id, status: "revoked" as const };
  },
});

export const SetAppPassword = route(AuthRoute, {
  operationId: "setAppPassword",
  summary: "Set or change the webapp password (TOFU on first set)",
  description:
    "The first password ends trust on first use: anonymous callers get 401 from then on. Changing it " +
    "needs `current_password` (wrong: 403; repeated: 429). Every other session is signed out and the " +
    "caller gets a fresh session cookie. Minimum length 8.",
  request: { body: { ...contentJson(SetPasswordIn), required: true } },
  responses: authOk("Password stored; the caller's session cookie is set"),
  handle: async (ctx, { body }, c) => {
    const { session, settings } = await withRetryAfter(c, () =>
      setPassword(ctx, { input: body, client: clientInfo(c) }),
    );
    setSessionCookie(c, session);
    setDeviceCookie(c, await deviceAfterSetPassword(ctx, { devices: deviceCookies(c), settings }));
    return { status: "password_set" };
  },
});

export const WebappSignOutAll = route(AuthRoute, {
  operationId: "webappSignOutAll",
  summary: "Bump the session epoch, invalidating all existing cookies",
  request: { body: { ...contentJson(SignOutAllIn.nullable()), required: false } },
  responses: authOk("Every session is signed out"),
  handle: async (ctx, { body }, c) => {
    await withRetryAfter(c, () => signOutAll(ctx, { input: body ?? null, client: clientInfo(c) }));
    clearSessionCookie(c);
    return { status: "signed_out_all" };
  },
});
