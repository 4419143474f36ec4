/**
 * What the Worker checks around the OAuth library's own endpoints, before the provider
 * sees the request: dynamic client registration is bounded (body size, a rate per hour, a count of
 * registered clients), and a rotated refresh token presented again ends its grant (OAuth 2.1's
 * refresh token reuse detection: the library itself accepts the previous token once more).
 */
import { sha256Hex } from "../domains/auth/crypto";
import type { Env } from "../env";
import { log } from "../lib/log";
import { helpers } from "../domains/connected-apps/apps";
import { REGISTER_PATH, TOKEN_PATH } from "../domains/connected-apps/oauth-config";

/** A registration is a few URIs and a name: anything bigger is not one. */
const MAX_REGISTRATION_BYTES = 8 * 1024;
/** Registrations accepted per clock hour (a person connects a few apps, not hundreds). */
const MAX_REGISTRATIONS_PER_HOUR = 20;
/** Registered clients kept at once (unused ones expire with the library's registration TTL). */
const MAX_CLIENTS = 100;

const RATE_PREFIX = "fj-oauth-reg:";

const json = (status: number, error: string, description: string, extra: Record<string, string> = {}) =>
  new Response(JSON.stringify({ error, error_description: description }), {
    status,
    headers: { "Content-Type": "application/json", "Cache-Control": "no-store", ...extra },
  });

/** The body up to `max` bytes, or null beyond (never buffered whole). */
export async function readCapped(req: Request, max: number): Promise<Uint8Array | null> {
  const reader = req.body?.getReader();
  if (!reader) return new Uint8Array();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await reader.cancel();
      return null;
    }
    chunks.push(value);
  }
  return new Uint8Array(await new Blob(chunks).arrayBuffer());
}

/** How many clients are registered, counted up to `limit`. */
async function clientCount(kv: KVNamespace, limit: number): Promise<number> {
  let n = 0;
  let cursor: string | undefined;
  do {
    const page = await kv.list({ prefix: "client:", cursor, limit: 1000 });
    n += page.keys.length;
    cursor = page.list_complete ? undefined : page.cursor;
  } while (cursor && n < limit);
  return n;
}

/**
 * POST /oauth/register, bounded: a body over MAX_REGISTRATION_BYTES is a 413, more than
 * MAX_REGISTRATIONS_PER_HOUR in the current hour a 429 (Retry-After: the hour's end), MAX_CLIENTS
 * registered a 429 too. A request that passes goes on with the body read here.
 */
async function guardRegistration(req: Request, env: Env, now: Date): Promise<Request | Response> {
  const kv = env.OAUTH_KV!;
  const declared = Number(req.headers.get("content-length") ?? 0);
  const tooLarge = () =>
    json(413, "invalid_request", `A registration is at most ${MAX_REGISTRATION_BYTES} bytes`);
  if (declared > MAX_REGISTRATION_BYTES) return tooLarge();
  const body = await readCapped(req, MAX_REGISTRATION_BYTES);
  if (!body) return tooLarge();
  const hour = Math.floor(now.getTime() / 3_600_000);
  // One key per registration (KV allows one write per second to a key: a counter would not hold
  // two registrations in a second), counted by listing the hour's prefix.
  const hourPrefix = `${RATE_PREFIX}${hour}:`;
  const used = (await kv.list({ prefix: hourPrefix, limit: MAX_REGISTRATIONS_PER_HOUR })).keys.length;
  const retryAfter = String(Math.max(1, Math.ceil(((hour + 1) * 3_600_000 - now.getTime()) / 1000)));
  if (used >= MAX_REGISTRATIONS_PER_HOUR) {
    log("warn", "oauth.registration_rate", { hour, used });
    return json(429, "too_many_requests", "Too many apps registered this hour; try again later", {
      "Retry-After": retryAfter,
    });
  }
  if ((await clientCount(kv, MAX_CLIENTS)) >= MAX_CLIENTS) {
    log("warn", "oauth.registration_full", { limit: MAX_CLIENTS });
    return json(
      429,
      "too_many_requests",
      "This journal has as many registered apps as it keeps; unused ones expire, try again later",
      { "Retry-After": "86400" },
    );
  }
  await kv.put(`${hourPrefix}${crypto.randomUUID()}`, "1", { expirationTtl: 7200 });
  return new Request(req, { body });
}

/**
 * POST /oauth/token with grant_type=refresh_token: a token the grant has already rotated away from
 * (the library keeps the previous one valid) is reuse, so someone else may hold the chain: the
 * whole grant is revoked and the request refused.
 */
async function guardRefresh(req: Request, env: Env, origin: string): Promise<Request | Response> {
  if (!/^application\/x-www-form-urlencoded\b/i.test(req.headers.get("content-type") ?? "")) return req;
  const body = await readCapped(req.clone(), 64 * 1024);
  if (!body) return req;
  const form = new URLSearchParams(new TextDecoder().decode(body));
  const token = form.get("refresh_token");
  if (form.get("grant_type") !== "refresh_token" || !token) return req;
  const [userId, grantId, secret, ...rest] = token.split(":");
  if (!userId || !grantId || !secret || rest.length) return req;
  const grant = await env.OAUTH_KV!.get<{ refreshTokenId?: string; previousRefreshTokenId?: string }>(
    `grant:${userId}:${grantId}`,
    { type: "json" },
  );
  if (!grant?.previousRefreshTokenId) return req;
  const id = await sha256Hex(token);
  if (id !== grant.previousRefreshTokenId || id === grant.refreshTokenId) return req;
  log("warn", "oauth.refresh_reuse", { grant: grantId });
  await helpers(env, origin).revokeGrant(grantId, userId);
  return json(
    400,
    "invalid_grant",
    "This refresh token was already used once; the connection is ended: connect the app again",
  );
}

/** The request to hand to the provider, or the refusal to answer with. */
export async function guardOAuth(req: Request, env: Env, now: Date): Promise<Request | Response> {
  if (req.method !== "POST" || !env.OAUTH_KV) return req;
  const url = new URL(req.url);
  if (url.pathname === REGISTER_PATH) return guardRegistration(req, env, now);
  if (url.pathname === TOKEN_PATH) return guardRefresh(req, env, url.origin);
  return req;
}
