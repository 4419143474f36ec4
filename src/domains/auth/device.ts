/**
 * Device cookies (OWASP's advice against lockout abuse): a browser that has
 * signed in before carries a signed `app_device` cookie, and its logins are throttled in that
 * device's own bucket instead of the client-address and global ones. Strangers' guesses, however
 * many and from however many addresses, then never lock the owner out, while a stranger (who has
 * no valid device cookie: it is only made by a right password) still meets every lock. A device
 * cookie carries the session epoch and its own expiry: sign-out-all and a password change
 * end it with the sessions, and the server refuses it after DEVICE_TTL_S whatever the browser keeps.
 */
import { hmacSign, hmacVerify, randomBytes } from "./crypto";
import type { AuthSettingsRow } from "./queries";
import { DEVICE_TTL_S, deviceIsLive, devicePayload, parseDeviceCookie, toHex } from "./rules";
import { sessionSecret } from "./sessions";
import type { Env } from "../../env";

/**
 * A device cookie value `d2.<epoch>.<exp>.<id>.<signature>`: a new id, or `id` (a known device
 * signing in again gets its lifetime renewed), at the current session epoch.
 */
export async function mintDevice(env: Env, s: AuthSettingsRow, now: Date, id?: string): Promise<string> {
  const claims = {
    epoch: s.session_epoch,
    exp: Math.floor(now.getTime() / 1000) + DEVICE_TTL_S,
    id: id ?? `dev_${toHex(randomBytes(16))}`,
  };
  return `d2.${claims.epoch}.${claims.exp}.${claims.id}.${await hmacSign(sessionSecret(env, s)!, devicePayload(claims))}`;
}

/** The first cookie value whose signature holds and which is still live (its id and value), or null. */
export async function verifiedDevice(
  env: Env,
  s: AuthSettingsRow,
  values: string[],
  now: Date,
): Promise<{ id: string; value: string } | null> {
  const secret = sessionSecret(env, s);
  if (!secret) return null;
  for (const value of values) {
    const parsed = parseDeviceCookie(value);
    if (!parsed || !deviceIsLive(parsed.claims, s.session_epoch, now)) continue;
    if (await hmacVerify(secret, devicePayload(parsed.claims), parsed.signature)) {
      return { id: parsed.claims.id, value };
    }
  }
  return null;
}

/** The throttle bucket of a device. */
export const deviceBucket = (id: string) => `device:${id}`;
