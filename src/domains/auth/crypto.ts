/** WebCrypto primitives of authentication: random ids, token hashes, PBKDF2, HMAC session signatures. */
import { constantTimeEqual, fromHex, PBKDF2_ITERATIONS, TOKEN_PREFIX, toBase64Url, toHex } from "./rules";

const encoder = new TextEncoder();

export function randomBytes(n: number): Uint8Array {
  return crypto.getRandomValues(new Uint8Array(n));
}

/** A new raw token: `fin_` + 32 random bytes, URL-safe. Shown once, never stored. */
export function newRawToken(): string {
  return TOKEN_PREFIX + toBase64Url(randomBytes(32));
}

export function newTokenId(): string {
  return `tok_${toHex(randomBytes(8))}`;
}

/** SHA-256 of the raw token, hex: the only form a token is stored in. */
export async function sha256Hex(text: string): Promise<string> {
  return toHex(new Uint8Array(await crypto.subtle.digest("SHA-256", encoder.encode(text))));
}

/** PBKDF2-SHA256 of a password with its salt, 32 bytes, hex. */
export async function pbkdf2Hex(password: string, saltHex: string, iterations = PBKDF2_ITERATIONS) {
  const key = await crypto.subtle.importKey("raw", encoder.encode(password), "PBKDF2", false, ["deriveBits"]);
  const salt = fromHex(saltHex);
  const bits = await crypto.subtle.deriveBits(
    { name: "PBKDF2", hash: "SHA-256", salt, iterations },
    key,
    256,
  );
  return toHex(new Uint8Array(bits));
}

/** Constant-time comparison of two hex (or any ASCII) strings. */
export function sameSecret(a: string, b: string): boolean {
  return constantTimeEqual(encoder.encode(a), encoder.encode(b));
}

async function hmacKey(secret: string): Promise<CryptoKey> {
  return crypto.subtle.importKey("raw", encoder.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, [
    "sign",
    "verify",
  ]);
}

/** HMAC-SHA256 of the payload, base64url (43 characters). */
export async function hmacSign(secret: string, payload: string): Promise<string> {
  const sig = await crypto.subtle.sign("HMAC", await hmacKey(secret), encoder.encode(payload));
  return toBase64Url(new Uint8Array(sig));
}

/** Recomputes the signature and compares in constant time. */
export async function hmacVerify(secret: string, payload: string, signature: string): Promise<boolean> {
  return sameSecret(await hmacSign(secret, payload), signature);
}
