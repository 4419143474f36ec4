/**
 * kv_state's declared keys. Every key (or key family, by prefix) has the zod schema of its value;
 * `kvGet`/`kvPut`/`kvRead` take only a declared key (`KvKey`: another string is refused at compile
 * time) and give or take that key's value type. kv_state holds only rebuildable state (statuses,
 * caches, notice stamps), so a stored value not in its shape reads as absent (logged), never as a
 * wrong shape. The value column is JSON (drizzle's JSON mode).
 */
import { eq, like, lt, or, type SQL, sql } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "./index";
import { storedJson } from "./json";
import { kvState } from "./schema";

const aiState = z.object({
  status: z.enum(["ok", "degraded"]),
  reason: z.string().nullable(),
  consecutive_errors: z.number().int().default(0),
});
const driftState = z.object({
  institution: z.string(),
  last_parsed_at: z.string(),
  fails: z.number().int(),
  notified: z.boolean(),
});

/** The registry: exact keys, then key families by prefix. */
const KEYS = {
  /** The model categorization's health (categorize/model.ts). */
  ai_categorization: aiState,
} as const;
const FAMILIES = {
  /** Wording drift per sender domain (domains/templates/engine/drift.ts). */
  "wording:": driftState,
  /** When the quarantine notice last went out per institution, an ISO instant (ingest/quarantine.ts). */
  "quarantine_notice:": z.string(),
  /** The merchant intelligence answer per month and window, a 1-hour cache: an object here, its
   * shape checked by its owner on read (domains/merchants/queries.ts; db imports no domain). */
  "merchant_intelligence:": z.record(z.string(), z.unknown()),
} as const;

type Exact = keyof typeof KEYS;
type Family = keyof typeof FAMILIES;
export type KvKey = Exact | `${Family}${string}`;
type KvValue<K extends KvKey> = K extends Exact
  ? z.infer<(typeof KEYS)[K]>
  : { [F in Family]: K extends `${F}${string}` ? z.infer<(typeof FAMILIES)[F]> : never }[Family];
/** Any declared value (the column's type). */
export type AnyKvValue = z.infer<(typeof KEYS)[Exact]> | z.infer<(typeof FAMILIES)[Family]>;

export type AiState = z.infer<typeof aiState>;
export type DriftState = z.infer<typeof driftState>;

const readers = new Map<string, (v: unknown) => unknown>();
function readerOf(key: string): ((v: unknown) => unknown) | null {
  const family = (Object.keys(FAMILIES) as Family[]).find((p) => key.startsWith(p));
  const name = family ?? (key in KEYS ? (key as Exact) : null);
  if (!name) return null;
  let r = readers.get(name);
  if (!r) {
    const schema: z.ZodType = family ? FAMILIES[family] : KEYS[name as Exact];
    r = storedJson(`kv_state[${name}]`, schema.nullable(), { value: () => null });
    readers.set(name, r);
  }
  return r;
}

/** A stored value (as a query read it) in its key's shape; null when absent or not in shape. */
export function kvRead<K extends KvKey>(key: K, value: unknown): KvValue<K> | null {
  const r = readerOf(key);
  return r && value !== undefined ? (r(value) as KvValue<K> | null) : null;
}

/** A declared key's value and when it was written, or null. */
export async function kvGet<K extends KvKey>(db: Db, key: K) {
  const part = kvGetPart(db, key);
  return part.read(await part.query);
}

/** kvGet as a part: its query (for a caller's batch) and how its rows become the value. */
export function kvGetPart<K extends KvKey>(db: Db, key: K) {
  const query = db
    .select({ value: kvState.value, updated_at: kvState.updated_at })
    .from(kvState)
    .where(eq(kvState.key, key))
    .limit(1);
  const read = (rows: readonly { value: unknown; updated_at: string }[]) => {
    const row = rows[0];
    const value = row ? kvRead(key, row.value) : null;
    return row && value !== null ? { value, updated_at: row.updated_at } : null;
  };
  return { query, read };
}

/** Writes a declared key (unexecuted: await it, or put it in a batch). */
export function kvPut<K extends KvKey>(db: Db, key: K, value: KvValue<K>, nowIso: string) {
  const row = { value: value as AnyKvValue, updated_at: nowIso };
  return db
    .insert(kvState)
    .values({ key, ...row })
    .onConflictDoUpdate({ target: kvState.key, set: row });
}

/** Values whose stored JSON orders like the value (ISO instants as JSON strings). */
type StringKey = { [K in KvKey]: KvValue<K> extends string ? K : never }[KvKey];

/**
 * Writes a string-valued key only when it is absent or its stored value sorts before `olderThan`
 * (both compared as the stored JSON text, which keeps an ISO instant's order). Unexecuted; the
 * result's `meta.changes` is 0 when the stored value was not older (nothing written).
 */
export function kvPutIfOlder<K extends StringKey>(
  db: Db,
  key: K,
  value: KvValue<K>,
  olderThan: KvValue<K>,
  nowIso: string,
) {
  const row = { value: value as AnyKvValue, updated_at: nowIso };
  return db
    .insert(kvState)
    .values({ key, ...row })
    .onConflictDoUpdate({
      target: kvState.key,
      set: row,
      setWhere: lt(kvState.value, olderThan as AnyKvValue),
    });
}

/** An exact key; a key family's prefix (the part before the variable suffix). */
export type KvExact = Exact;
export type KvFamily = Family;

/**
 * Stored rows of some exact keys and key families, unexecuted (batchable). Values are as stored:
 * read each through `kvRead(row.key, row.value)`.
 */
export function kvRowsQuery(db: Db, q: { keys?: readonly Exact[]; families?: readonly Family[] }) {
  const conds: SQL[] = [
    ...(q.keys ?? []).map((k) => eq(kvState.key, k)),
    ...(q.families ?? []).map((f) => like(kvState.key, `${f}%`)),
  ];
  return db
    .select({ key: kvState.key, value: kvState.value })
    .from(kvState)
    .where(conds.length ? or(...conds) : sql`0`);
}
