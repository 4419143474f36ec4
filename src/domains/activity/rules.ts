/** Pure ledger rules: caps, retention, image comparison, change summaries. No I/O. */

export const LIMIT_DEFAULT = 100;
export const LIMIT_MAX = 500;
const RETENTION_DAYS = 90;
/** Bulk before/after images cover at most this many rows; larger edits are journaled envelope-only. */
export const BULK_ROW_CAP = 200;
/** An entry (both images and the envelope) stays under this many bytes of JSON. */
const ENTRY_MAX_BYTES = 400_000;
const ENVELOPE_ALLOWANCE = 2_000;

export type Image = Record<string, unknown>;
/** What handlers stage: any JSON object (typed records included). */
export type ImageLike = object;

/** JSON with object keys sorted at every depth, so equal values give equal text. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value));
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value && typeof value === "object") {
    const out: Record<string, unknown> = {};
    const entries: [string, unknown][] = Object.entries(value);
    for (const [k, v] of entries.sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0))) {
      if (v !== undefined) out[k] = sortKeys(v);
    }
    return out;
  }
  return value;
}

/** Whether two images describe the same state (key order and undefined fields ignored). */
export function sameImage(a: unknown, b: unknown): boolean {
  return canonicalJson(a ?? null) === canonicalJson(b ?? null);
}

/** Top-level keys whose values differ between two images, sorted. */
export function changedKeys(before: ImageLike | null, after: ImageLike | null): string[] {
  const b = new Map<string, unknown>(Object.entries(before ?? {}));
  const a = new Map<string, unknown>(Object.entries(after ?? {}));
  const keys = new Set([...b.keys(), ...a.keys()]);
  return [...keys].filter((k) => !sameImage(b.get(k), a.get(k))).sort();
}

/** A short description of an image change: created, deleted, or the changed fields. */
export function describeChange(kind: string, before: ImageLike | null, after: ImageLike | null): string {
  if (after === null) return `deleted ${kind}`;
  if (before !== null && Object.keys(before).length === 0) return `created ${kind}`;
  const keys = changedKeys(before, after);
  if (keys.length === 0) return `${kind}: no change`;
  const shown = keys.slice(0, 8).join(", ");
  return `${kind}: changed ${shown}${keys.length > 8 ? ` and ${keys.length - 8} more` : ""}`;
}

/** Why images cannot be kept (null when they fit): over the bulk row cap or the entry size. */
export function imagesRejection(
  rows: number,
  before: ImageLike | null,
  after: ImageLike | null,
): string | null {
  if (rows > BULK_ROW_CAP) return `${rows} rows exceed the ${BULK_ROW_CAP}-row image cap`;
  const bytes = new TextEncoder().encode(JSON.stringify([before, after])).length;
  if (bytes + ENVELOPE_ALLOWANCE > ENTRY_MAX_BYTES)
    return `images of ${bytes} bytes exceed the entry size cap`;
  return null;
}

export function retentionCutoff(now: Date): string {
  return new Date(now.getTime() - RETENTION_DAYS * 24 * 3600 * 1000).toISOString();
}
