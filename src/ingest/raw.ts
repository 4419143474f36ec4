/**
 * Keep the raw first: the original bytes go to R2 before any field is parsed, so retry, reparse
 * and to-fixture can replay them. The key is deterministic (same message → same object):
 * `emails/YYYY/MM/<sha256-16>.eml`, month of the Date header in the configured zone.
 */
import { parseEmailDate } from "./dates";

const HEAD_SCAN_BYTES = 64 * 1024;

export function toBytes(raw: Uint8Array | string): Uint8Array {
  return typeof raw === "string" ? new TextEncoder().encode(raw) : raw;
}

/** The first value of header `name` (lower-case letters, digits, dashes) from the message head, without a full MIME parse. */
export function scanHeader(bytes: Uint8Array, name: string): string | null {
  const head = new TextDecoder("latin1").decode(bytes.subarray(0, HEAD_SCAN_BYTES));
  const end = head.search(/\r?\n\r?\n/);
  const headers = (end >= 0 ? head.slice(0, end) : head).replace(/\r?\n[ \t]+/g, " ");
  const m = new RegExp(`^${name}:[ \\t]*(.+)$`, "im").exec(headers);
  return m?.[1]?.trim() || null;
}

/** The Date header's instant, from the message head without a full MIME parse. */
export function headerDate(bytes: Uint8Array): Date | null {
  return parseEmailDate(scanHeader(bytes, "date"));
}

export function rawKey(year: string, month: string, rawSha256: string): string {
  return `emails/${year}/${month}/${rawSha256.slice(0, 16)}.eml`;
}

export async function storeRaw(
  files: R2Bucket,
  key: string,
  bytes: Uint8Array,
  source: string,
): Promise<void> {
  await files.put(key, bytes, {
    httpMetadata: { contentType: "message/rfc822" },
    customMetadata: { source },
  });
}
