/**
 * The drizzle database of a D1 binding, and the row filters every domain shares. Queries use
 * drizzle's builder, or its `sql` template where a hand-written aggregate is clearer; never
 * positional binds.
 */
import { asCents, type Cents } from "../lib/money";
import { and, gte, inArray, isNull, lt, eq, type SQL, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { type DrizzleD1Database, drizzle } from "drizzle-orm/d1";
import { DEPOSIT_TYPES, SPENDING_TYPES } from "../lib/transaction-types";
import * as schema from "./schema";

export type Db = DrizzleD1Database<typeof schema>;

const cache = new WeakMap<D1Database, Db>();

/** The drizzle handle of a D1 binding (one per binding, reused across requests of an isolate). */
export function getDb(d1: D1Database): Db {
  let db = cache.get(d1);
  if (!db) {
    db = drizzle(d1, { schema });
    cache.set(d1, db);
  }
  return db;
}

export { schema };

/** A statement that reads (or writes) in a batch and can be awaited alone. */
export type Query = BatchItem<"sqlite"> & PromiseLike<unknown>;
/**
 * What `namedBatch` hands back: each statement's result under its name (undefined for a skipped
 * one); a list of statements (a service's part) gives the list of their results.
 */
export type Named<S> = {
  [K in keyof S]: S[K] extends readonly unknown[]
    ? { -readonly [I in keyof S[K]]: Awaited<S[K][I]> }
    : Awaited<S[K]>;
};

/**
 * Independent statements in ONE `db.batch` (one round trip), their results named as the statements
 * were: `const { rows, total } = await namedBatch(db, { rows: rowsQuery, total: totalQuery })`. An
 * undefined statement is left out of the batch (its result is undefined); a list (a service's part)
 * gets its results as a list. A failing batch throws.
 */
export async function namedBatch<S extends Record<string, Query | readonly Query[] | undefined>>(
  db: Db,
  stmts: S,
): Promise<Named<S>> {
  const flat: Query[] = [];
  const at: [key: string, from: number, n: number | null][] = [];
  for (const [k, v] of Object.entries(stmts)) {
    if (v === undefined) continue;
    const list = Array.isArray(v) ? (v as readonly Query[]) : null;
    at.push([k, flat.length, list ? list.length : null]);
    flat.push(...(list ?? [v as Query]));
  }
  const results: unknown[] = flat.length ? await db.batch(flat as [Query, ...Query[]]) : [];
  return Object.fromEntries(
    at.map(([k, i, n]) => [k, n === null ? results[i] : results.slice(i, i + n)]),
  ) as Named<S>;
}

const t = schema.transactions;

/** A row counts: not deleted, not ignored. */
export const live = (): SQL => and(isNull(t.DeletedAt), eq(t.Ignored, 0))!;

/** Money out. */
export const spending = (): SQL => inArray(t.TransactionType, [...SPENDING_TYPES]);

/** Money in. */
export const deposits = (): SQL => inArray(t.TransactionType, [...DEPOSIT_TYPES]);

/**
 * A row's category identity in SQL, the one expression every aggregate groups by: trimmed,
 * lowercased, empty or NULL → `uncategorized` (rows are stored whitespace-tidied: ingest/commit.ts
 * and migration 0025). SQLite's lower() folds ASCII only; readers that compare with a typed name
 * fold the grouped keys once more with `categoryKey` (categorize/normalize.ts).
 */
export const categoryKeySql = (): SQL<string> =>
  sql<string>`lower(COALESCE(NULLIF(trim(${t.Category}), ''), 'uncategorized'))`;

/** DateFileName in [lo, hi): month range scans on idx_transactions_month (bounds from lib/month). */
export const inRange = (lo: string, hi: string): SQL => and(gte(t.DateFileName, lo), lt(t.DateFileName, hi))!;

/** SUM(Amount) in cents as an integer (0 when no row). */
/** SUM(Amount) over the rows: integer cents (the storage boundary brands it). */
export const sumAmount = (): SQL<Cents> =>
  sql<Cents>`COALESCE(SUM(${t.Amount}), 0)`.mapWith((v) => asCents(Number(v)));
