/** Pure authentication rules: token and cookie formats, throttles, lockout. No I/O. */
import { apiTokens } from "../../db/schema";

/** The scopes api_tokens.scope allows (declared once, in the schema). */
export const TOKEN_SCOPES = apiTokens.scope.enumValues;
export type TokenScope = (typeof TOKEN_SCOPES)[number];
export const DEFAULT_SCOPE: TokenScope = "read+write";

export const TOKEN_PREFIX = "fin_";
/** `fin_` + base64url of 32 random bytes (43 characters). */
const TOKEN_SHAPE = /^fin_[A-Za-z0-9_-]{43}$/;

export const SESSION_COOKIE = "app_session";
export const SESSION_TTL_S = 30 * 24 * 3600;
export const LAST_USED_THROTTLE_MS = 15 * 60 * 1000;
/** workerd caps PBKDF2 at 100000 iterations. */
export const PBKDF2_ITERATIONS = 100_000;
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 1024;

/**
 * Wrong passwords allowed per client address before its lockout window starts, the window's first
 * length and its cap: 5 guesses, then one per window (30 s doubling to 15 min).
 */
export const FREE_FAILURES = 4;
export const LOCKOUT_BASE_S = 30;
export const LOCKOUT_MAX_S = 15 * 60;
/** The same, across all addresses together (caps distributed guessing): 20 guesses, then one per window. */
export const GLOBAL_FREE_FAILURES = 19;
export const GLOBAL_BUCKET = "global";
/** The longest User-Agent kept on a session row. */
export const USER_AGENT_MAX = 200;

/**
 * The throttle bucket of a client address: IPv6 by its /64 (one subscriber usually holds a whole
 * /64, so single addresses would be free to rotate). Unknown (local) callers share one bucket.
 */
export function clientBucket(ip: string | null | undefined): string {
  // Bounded: the header is the client's word under wrangler dev (Cloudflare itself sets it).
  const a = (ip ?? "").trim().toLowerCase().slice(0, 64);
  if (!a) return "ip:unknown";
  if (!a.includes(":") || a.startsWith("::ffff:")) return `ip:${a.replace(/^::ffff:/, "")}`;
  const [head = "", tail = ""] = a.split("::");
  const left = head ? head.split(":") : [];
  const right = tail ? tail.split(":") : [];
  const full = a.includes("::")
    ? [...left, ...Array(Math.max(0, 8 - left.length - right.length)).fill("0"), ...right]
    : left;
  return `ip:${full
    .slice(0, 4)
    .map((h) => h.replace(/^0+(?=.)/, ""))
    .join(":")}::/64`;
}

/** The token from an `Authorization` header value; null for a wrong scheme or a missing token. */
export function parseBearer(header: string): string | null {
  const m = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header.trim());
  return m ? m[1]! : null;
}

export function isWellFormedToken(raw: string): boolean {
  return TOKEN_SHAPE.test(raw);
}

/** Stamp `last_used_at` only when it is unset or older than the 15-minute throttle. */
export function shouldStampLastUsed(lastUsedAt: string | null, now: Date): boolean {
  if (!lastUsedAt) return true;
  const t = Date.parse(lastUsedAt);
  return Number.isNaN(t) || now.getTime() - t >= LAST_USED_THROTTLE_MS;
}

/** Seconds until an ISO `locked_until` passes (0 when not locked). */
export function retryAfterSeconds(lockedUntil: string | null, now: Date): number {
  if (!lockedUntil) return 0;
  const t = Date.parse(lockedUntil);
  if (Number.isNaN(t)) return 0;
  return Math.max(0, Math.ceil((t - now.getTime()) / 1000));
}

/**
 * What a session cookie carries (signed): the session epoch, expiry (unix s) and a nonce, which is
 * the id of the session's row (a cookie whose row is ended or missing is refused).
 */
interface SessionClaims {
  epoch: number;
  exp: number;
  nonce: string;
}

/** The signed part of the cookie: `v1.<epoch>.<exp>.<nonce>`. */
export function sessionPayload(c: SessionClaims): string {
  return `v1.${c.epoch}.${c.exp}.${c.nonce}`;
}

const COOKIE_SHAPE = /^v1\.(\d{1,12})\.(\d{1,12})\.([A-Za-z0-9_-]{8,64})\.([A-Za-z0-9_-]{43})$/;

/** Splits a cookie value into claims, payload and signature; null when malformed. */
export function parseSessionCookie(
  value: string,
): { claims: SessionClaims; payload: string; signature: string } | null {
  const m = COOKIE_SHAPE.exec(value);
  if (!m) return null;
  const claims = { epoch: Number(m[1]), exp: Number(m[2]), nonce: m[3]! };
  return { claims, payload: sessionPayload(claims), signature: m[4]! };
}

/** `ses_` + 32 hex: fits the cookie's nonce. */
export const SESSION_ID_SHAPE = /^ses_[0-9a-f]{32}$/;

/**
 * Every value of the cookie `name` in a Cookie header, in order, duplicates dropped. All of them:
 * a sibling subdomain may plant any number of its own before the real one.
 */
export function cookieValues(header: string | null | undefined, name: string): string[] {
  const out = new Set<string>();
  for (const part of (header ?? "").split(";")) {
    const eq = part.indexOf("=");
    if (eq < 0 || part.slice(0, eq).trim() !== name) continue;
    let v = part.slice(eq + 1).trim();
    if (v.startsWith('"') && v.endsWith('"') && v.length >= 2) v = v.slice(1, -1);
    try {
      out.add(decodeURIComponent(v));
    } catch {
      out.add(v);
    }
  }
  return [...out];
}

/** Every `app_session` value of a Cookie header, in order. */
export function sessionCookieValues(header: string | null | undefined): string[] {
  return cookieValues(header, SESSION_COOKIE);
}

/**
 * The device cookie (OWASP's "device cookies" against lockout abuse): set by a successful login,
 * signed, sent only to the auth routes. A login that carries a valid one is throttled in that
 * device's own bucket, so a lock built by strangers' guesses never refuses the owner's browser.
 */
export const DEVICE_COOKIE = "app_device";
export const DEVICE_COOKIE_PATH = "/api/v1/auth";
export const DEVICE_TTL_S = 400 * 24 * 3600;
const DEVICE_SHAPE = /^d2\.(\d{1,15})\.(\d{1,15})\.(dev_[0-9a-f]{32})\.([A-Za-z0-9_-]{43})$/;

/** What a device cookie says (signed): the session epoch it was made in, its expiry (unix s), its id. */
interface DeviceClaims {
  epoch: number;
  exp: number;
  id: string;
}

/**
 * What a device cookie's signature covers (a different text from any session payload). The epoch
 * ties it to the sessions of its time: sign-out-all and a password change (which bump the epoch)
 * end every device cookie too, and the expiry is the server's, whatever the browser keeps.
 */
export const devicePayload = (c: DeviceClaims) => `device.v2.${c.epoch}.${c.exp}.${c.id}`;

/** The claims and signature of a device cookie value; null when malformed. */
export function parseDeviceCookie(value: string): { claims: DeviceClaims; signature: string } | null {
  const m = DEVICE_SHAPE.exec(value);
  return m ? { claims: { epoch: Number(m[1]), exp: Number(m[2]), id: m[3]! }, signature: m[4]! } : null;
}

/** A device cookie counts while unexpired and made under the current epoch (as a session). */
export const deviceIsLive = (c: DeviceClaims, currentEpoch: number, now: Date) =>
  c.epoch === currentEpoch && c.exp * 1000 > now.getTime();

/** A session is live while unexpired and minted under the current epoch. */
export function sessionIsLive(c: SessionClaims, currentEpoch: number, now: Date): boolean {
  return c.epoch === currentEpoch && c.exp * 1000 > now.getTime();
}

/** Equal-length byte comparison whose time does not depend on where the bytes differ. */
export function constantTimeEqual(a: Uint8Array, b: Uint8Array): boolean {
  let diff = a.length ^ b.length;
  const n = Math.max(a.length, b.length);
  for (let i = 0; i < n; i++) diff |= (a[i] ?? 0) ^ (b[i] ?? 0);
  return diff === 0;
}

export function toBase64Url(bytes: Uint8Array): string {
  let bin = "";
  for (const b of bytes) bin += String.fromCharCode(b);
  return btoa(bin).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

export function toHex(bytes: Uint8Array): string {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

export function fromHex(hex: string): Uint8Array {
  const out = new Uint8Array(hex.length >> 1);
  for (let i = 0; i < out.length; i++) out[i] = Number.parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return out;
}
