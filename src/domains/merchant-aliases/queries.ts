/** Statements of the merchant-alias domain (tier 2 of the override resolver). */
import { eq, sql } from "drizzle-orm";
import type { AliasRow } from "../../categorize/rules";
import type { Db } from "../../db";
import type { ListDef } from "../../db/lists";
import { merchantAliases } from "../../db/schema";

export type { AliasRow };
const a = merchantAliases;

export const ALIASES: ListDef<AliasRow> = {
  name: "merchant_aliases",
  query: (db) =>
    db
      .select({ raw_name: a.raw_name, canonical: a.canonical })
      .from(a)
      .orderBy(sql`${a.raw_name} COLLATE NOCASE`),
};

/** Every alias as stored (no order): the resolver's index is built from these. */
export const aliasPairs = (db: Db) => db.select({ raw_name: a.raw_name, canonical: a.canonical }).from(a);

// `raw_name` is a NOCASE column: `eq` finds the alias in any case.
export const getAlias = async (db: Db, rawName: string): Promise<AliasRow | null> =>
  (
    await db.select({ raw_name: a.raw_name, canonical: a.canonical }).from(a).where(eq(a.raw_name, rawName))
  )[0] ?? null;

/** Creates or replaces an alias; the key keeps the casing of the latest write. */
export const upsertAlias = (db: Db, row: AliasRow, nowIso: string) =>
  db
    .insert(a)
    .values({ ...row, created_at: nowIso, updated_at: nowIso })
    .onConflictDoUpdate({ target: a.raw_name, set: { ...row, updated_at: nowIso } });

export const deleteAliasRow = (db: Db, rawName: string) => db.delete(a).where(eq(a.raw_name, rawName));
