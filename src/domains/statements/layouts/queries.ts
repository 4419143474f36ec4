/** Queries of statement_layouts (taught PDF layouts, one per header fingerprint). No rules here. */
import { eq, sql } from "drizzle-orm";
import { type Db, schema } from "../../../db";
import type { StatementLayoutRecord } from "../../../db/schema";

const l = schema.statementLayouts;

/** Every taught layout, oldest first (unexecuted: a read batch may carry it); `listLayouts` runs it. */
export const layoutsQuery = (db: Db) => db.select().from(l).orderBy(l.created_at);

export const listLayouts = (db: Db) => layoutsQuery(db).all();

export const layoutById = (db: Db, id: string) => db.select().from(l).where(eq(l.id, id)).get();

/** Counts a statement read by a stored layout (never blocks the upload). */
export const countMatchQuery = (db: Db, id: string, nowIso: string) =>
  db
    .update(l)
    .set({ match_count: sql`${l.match_count} + 1`, last_matched_at: nowIso })
    .where(eq(l.id, id));

/** The layout saved under its fingerprint (a taught one replaces its fields, keeping its id). */
export const saveByFingerprintQuery = (db: Db, record: StatementLayoutRecord) =>
  db
    .insert(l)
    .values(record)
    .onConflictDoUpdate({ target: l.fingerprint, set: { ...record, id: undefined } });

export const renameLayoutQuery = (db: Db, id: string, name: string, nowIso: string) =>
  db.update(l).set({ name, updated_at: nowIso }).where(eq(l.id, id));

export const deleteLayoutQuery = (db: Db, id: string) => db.delete(l).where(eq(l.id, id));

/** The ledger's restore as one statement: null removes the layout, a record puts it back as it was. */
export const restoreLayoutQuery = (db: Db, id: string, before: StatementLayoutRecord | null) =>
  before === null
    ? deleteLayoutQuery(db, id)
    : db.insert(l).values(before).onConflictDoUpdate({ target: l.id, set: before });
