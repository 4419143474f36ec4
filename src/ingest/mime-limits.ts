/**
 * The cost of an email, bounded before postal-mime reads it: size, MIME nesting depth and part
 * count, found by one linear pass over the raw lines. It follows the structure the
 * parser would build: a header block opens a part; a multipart's `boundary` opens a level whose
 * delimiter lines start its parts (an outer delimiter also closes the inner levels); a
 * `message/rfc822` (or `message/global`, or a digest's untyped part) body is itself a header block
 * one level deeper. Parts inside a transfer-encoded message/* body are not seen here; postal-mime's
 * own nesting limits (passed from here) cover those.
 */

/** Cloudflare Email Routing's own ceiling; other doors are held to it too. */
export const MAX_EMAIL_BYTES = 25 * 1024 * 1024;
/** Levels of nested parts and messages: a forwarded alert with attachments uses four or five. */
export const MAX_MIME_DEPTH = 24;
/** Parts (header blocks) in one email: a bank alert has a handful, a newsletter some dozens. */
export const MAX_MIME_PARTS = 1000;

/** The limits handed to postal-mime for what this scan cannot see (encoded message/* bodies). */
export const POSTAL_MIME_LIMITS = {
  maxNestingDepth: MAX_MIME_DEPTH,
  maxRfc822NestingDepth: 4,
  maxHeadersSize: 1024 * 1024,
};

/** Header values longer than this are cut before their parameters are read (one line's worth). */
const MAX_TYPE_CHARS = 4096;

interface Level {
  boundary: string;
  /** Depth of the multipart's own header block. */
  depth: number;
  digest: boolean;
}

/** Bytes [start, stop) as latin1 text, at most MAX_TYPE_CHARS of them (longer lines matter no further). */
function latin1(bytes: Uint8Array, start: number, stop: number): string {
  const end = Math.min(stop, start + MAX_TYPE_CHARS);
  let out = "";
  for (let i = start; i < end; i += 1024) {
    out += String.fromCharCode.apply(null, bytes.subarray(i, Math.min(end, i + 1024)) as unknown as number[]);
  }
  return out;
}

const fmt = (n: number) => n.toLocaleString("en-US");

/** Content-Type value → its media type and boundary (lowercase type; boundary as written). */
function readType(value: string): { type: string; boundary: string | null } {
  const v = value.slice(0, MAX_TYPE_CHARS);
  const type = (/^\s*([^;\s]+)/.exec(v)?.[1] ?? "").toLowerCase();
  const b = /;\s*boundary\s*=\s*(?:"([^"]*)"|([^\s;]+))/i.exec(v);
  return { type, boundary: b ? (b[1] ?? b[2] ?? "") : null };
}

/**
 * Why the email is refused before parsing, in words, or null when it is within bounds.
 * Linear in the size (each line is looked at once; boundary lookups walk at most MAX_MIME_DEPTH
 * levels).
 */
export function mimeRefusal(bytes: Uint8Array): string | null {
  if (bytes.length > MAX_EMAIL_BYTES) {
    return `This email is ${(bytes.length / 1024 / 1024).toFixed(1)} MB; emails are read up to ${MAX_EMAIL_BYTES / 1024 / 1024} MB.`;
  }
  const levels: Level[] = [];
  let inHeader = true;
  let depth = 1;
  let parts = 1;
  let digestPart = false;
  let contentType: string | null = null;
  let inType = false;
  let encoded = false;

  /** A new header block `at` this depth: counted and bounded. */
  const openPart = (at: number, digest: boolean): string | null => {
    parts++;
    depth = at;
    if (depth > MAX_MIME_DEPTH)
      return `This email nests its parts more than ${MAX_MIME_DEPTH} levels deep; a bank alert uses a few. It was kept unread.`;
    if (parts > MAX_MIME_PARTS)
      return `This email holds more than ${fmt(MAX_MIME_PARTS)} parts; a bank alert has a handful. It was kept unread.`;
    digestPart = digest;
    inHeader = true;
    contentType = null;
    encoded = false;
    return null;
  };

  /** A delimiter line of an open multipart: start its next part (or close it). */
  const delimiter = (line: string): string | null => {
    if (levels.length === 0 || line.charCodeAt(0) !== 45 || line.charCodeAt(1) !== 45) return null;
    const bare = line.slice(2).replace(/[ \t]+$/, "");
    for (let i = levels.length - 1; i >= 0; i--) {
      const level = levels[i]!;
      if (bare === level.boundary) {
        levels.length = i + 1;
        return openPart(level.depth + 1, level.digest) ?? "";
      }
      if (bare === `${level.boundary}--`) {
        levels.length = i;
        inHeader = false;
        return "";
      }
    }
    return null;
  };

  /** The end of a header block: what its body is. */
  const endHeader = (): string | null => {
    const { type, boundary } = readType(contentType ?? (digestPart ? "message/rfc822" : "text/plain"));
    inHeader = false;
    if (type.startsWith("multipart/") && boundary) {
      levels.push({ boundary, depth, digest: type === "multipart/digest" });
      return null;
    }
    return (type === "message/rfc822" || type === "message/global") && !encoded
      ? openPart(depth + 1, false)
      : null;
  };

  let at = 0;
  while (at <= bytes.length) {
    let end = bytes.indexOf(10, at);
    if (end < 0) end = bytes.length;
    const stop = end > at && bytes[end - 1] === 13 ? end - 1 : end;
    const start = at;
    at = end + 1;
    // Only delimiter candidates and header lines are looked at (a body line costs its newline search).
    const dashes = bytes[start] === 45 && bytes[start + 1] === 45;
    if (!dashes && !inHeader) continue;
    const line = latin1(bytes, start, stop);
    const d = delimiter(line);
    if (d) return d;
    if (d === "" || !inHeader) continue;
    if (line === "") {
      const why = endHeader();
      if (why) return why;
      continue;
    }
    const folded = line.charCodeAt(0) === 32 || line.charCodeAt(0) === 9;
    if (folded) {
      if (inType && contentType !== null && contentType.length < MAX_TYPE_CHARS) contentType += line;
      continue;
    }
    inType = false;
    const colon = line.indexOf(":");
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    if (name === "content-type" && contentType === null) {
      contentType = line.slice(colon + 1, colon + 1 + MAX_TYPE_CHARS);
      inType = true;
    } else if (name === "content-transfer-encoding") {
      encoded = /base64|quoted-printable/i.test(line.slice(colon + 1, colon + 200));
    }
  }
  return null;
}
