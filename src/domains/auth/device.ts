/**
 * Device cookies (issue 26 finding 7, OWASP's advice against lockout abuse): a browser that has
 * signed in before carries a signed `app_device` cookie, and its logins are throttled in that
 * device's own bucket instead of the client-address and global ones. Strangers' guesses, however
 * many and from however many addresses, then never lock the owner out, while a stranger (who has
 * no valid device cookie: it is only made by a right password) still meets every lock.
 */
import { hmacSign, hmacVerify, randomBytes } from "./crypto";
import type { AuthSettingsRow } from "./queries";
import { devicePayload, parseDeviceCookie, toHex } from "./rules";
import { sessionSecret } from "./sessions";
import type { Env } from "../../env";

/** A new device cookie value: `d1.<id>.<signature>`. */
export async function mintDevice(env: Env, s: AuthSettingsRow): Promise<string> {
  const id = `dev_${toHex(randomBytes(16))}`;
  return `d1.${id}.${await hmacSign(sessionSecret(env, s)!, devicePayload(id))}`;
}

/** The first cookie value whose signature holds (its id and value), or null. */
export async function verifiedDevice(
  env: Env,
  s: AuthSettingsRow,
  values: string[],
): Promise<{ id: string; value: string } | null> {
  const secret = sessionSecret(env, s);
  if (!secret) return null;
  for (const value of values) {
    const parsed = parseDeviceCookie(value);
    if (parsed && (await hmacVerify(secret, devicePayload(parsed.id), parsed.signature))) {
      return { id: parsed.id, value };
    }
  }
  return null;
}

/** The throttle bucket of a device. */
export const deviceBucket = (id: string) => `device:${id}`;
