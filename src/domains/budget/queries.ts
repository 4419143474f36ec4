/** Queries of budget_config (per user and year: `targets` and `groups`, each versioned). */
import { and, eq, type SQL, sql } from "drizzle-orm";
import type { Db } from "../../db";
import type { Batch } from "../../lib/context";
import { budgetConfig } from "../../db/schema";

const b = budgetConfig;
export type ItemKind = (typeof b.$inferSelect)["kind"];
export type ItemRow = Pick<typeof b.$inferSelect, "kind" | "data" | "version" | "updated_at">;

/** Both items of a user's year (a query: awaited, or one statement of a caller's batch). */
export function readItems(db: Db, userId: string, year: number) {
  return db
    .select({ kind: b.kind, data: b.data, version: b.version, updated_at: b.updated_at })
    .from(b)
    .where(and(eq(b.user_id, userId), eq(b.year, year)));
}

const targetsOf = (userId: string, year: number) =>
  and(eq(b.user_id, userId), eq(b.year, year), eq(b.kind, "targets"));

/** The targets row of a user's year as `{ data }` (a query: awaited, or one statement of a batch). */
export function targetsQuery(db: Db, userId: string, year: number) {
  return db.select({ data: b.data }).from(b).where(targetsOf(userId, year));
}

/** The targets document of a user's year (as stored: read it with parseTargets), or null. */
export async function readTargetsData(db: Db, userId: string, year: number): Promise<unknown> {
  const rows = await targetsQuery(db, userId, year);
  return rows[0]?.data ?? null;
}

/** The same document as a scalar subquery (JSON text), for a caller that packs one statement (income). */
export const targetsDataSql = (userId: string, year: number): SQL =>
  sql`(SELECT ${b.data} FROM ${b} WHERE ${targetsOf(userId, year)})`;

/** The targets documents of a year, every user's (as stored: read each with parseTargets). */
export async function targetsOfYear(db: Db, year: number): Promise<unknown[]> {
  return (await yearTargetsQuery(db, year)).map((r) => r.data);
}

/** Every user's targets row of a year as `{ user_id, data }` (one statement of a caller's batch). */
export const yearTargetsQuery = (db: Db, year: number | SQL) =>
  db
    .select({ user_id: b.user_id, data: b.data })
    .from(b)
    .where(and(eq(b.kind, "targets"), eq(b.year, year)));

/** Whether any user has a budget item for the year. */
export async function hasBudgetYear(db: Db, year: number): Promise<boolean> {
  const rows = await db.select({ year: b.year }).from(b).where(eq(b.year, year)).limit(1);
  return rows.length > 0;
}

export type ItemInsert = typeof b.$inferInsert;

/** One item written unless it exists (a statement for the caller's batch: the demo household). */
export const insertItemIfAbsent = (db: Db, row: ItemInsert) => db.insert(b).values(row).onConflictDoNothing();

export interface ItemWrite {
  kind: ItemKind;
  data: unknown;
  /** The version the caller read (0: none exists); null writes unconditionally (revert). */
  expected: number | null;
}

/**
 * Writes every item in ONE statement: all rows or none. The guard (each item's current version,
 * 0 when absent, equals its expected version) is evaluated before any row is written, so two
 * writers holding the same version cannot both win. Returns the new versions, or null when stale.
 */
export async function writeItems(
  db: Db,
  batch: Batch,
  { userId, year, items, nowIso }: { userId: string; year: number; items: ItemWrite[]; nowIso: string },
): Promise<Partial<Record<ItemKind, number>> | null> {
  const values = sql.join(
    items.map((it) => sql`SELECT ${it.kind} AS kind, ${JSON.stringify(it.data)} AS data`),
    sql` UNION ALL `,
  );
  const guards = items.flatMap((it) =>
    it.expected === null
      ? []
      : [
          sql`COALESCE((SELECT ${b.version} FROM ${b} WHERE ${b.user_id} = ${userId} AND ${b.year} = ${year} AND ${b.kind} = ${it.kind}), 0) = ${it.expected}`,
        ],
  );
  // The SELECT always carries a WHERE: SQLite needs one before an upsert's ON CONFLICT. Its
  // ledger entry rides in the same batch, written only when the guarded write wrote.
  const [rows] = await batch(
    [
      db
        .insert(b)
        .select(
          sql`SELECT ${userId}, ${year}, v.kind, v.data, 1, ${nowIso} FROM (${values}) AS v
          WHERE ${guards.length ? sql.join(guards, sql` AND `) : sql`1`}`,
        )
        .onConflictDoUpdate({
          target: [b.user_id, b.year, b.kind],
          set: {
            data: sql`excluded.data`,
            version: sql`${b.version} + 1`,
            updated_at: sql`excluded.updated_at`,
          },
        })
        .returning({ kind: b.kind, version: b.version }),
    ],
    { ifChanged: true },
  );
  if (rows.length !== items.length) return null;
  return Object.fromEntries(rows.map((r) => [r.kind, Number(r.version)]));
}

/** Every item of every user and year, with its version (the category rename rewrites them). */
export function allItemsQuery(db: Db) {
  return db
    .select({ user_id: b.user_id, year: b.year, kind: b.kind, data: b.data, version: b.version })
    .from(b);
}
type StoredItem = Awaited<ReturnType<typeof allItemsQuery>>[number];

/** One item's document replaced if still at `r.version`, the version bumped (unexecuted: for a batch). */
export function replaceItemDataQuery(db: Db, r: StoredItem, data: ItemRow["data"], nowIso: string) {
  return db
    .update(b)
    .set({ data, version: sql`${b.version} + 1`, updated_at: nowIso })
    .where(and(eq(b.user_id, r.user_id), eq(b.year, r.year), eq(b.kind, r.kind), eq(b.version, r.version)));
}
