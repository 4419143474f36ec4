import { deleteCookie, setCookie } from "hono/cookie";
import type { AppContext } from "../../../http/context";
import { ApiError } from "../../../http/errors";
import { domainRoute, ok } from "../../../http/route";
import {
  DEVICE_COOKIE,
  DEVICE_COOKIE_PATH,
  DEVICE_TTL_S,
  SESSION_COOKIE,
  SESSION_TTL_S,
  cookieValues,
} from "../rules";
import type { ClientInfo } from "../sessions";
import { AuthResponse } from "../schemas";

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
