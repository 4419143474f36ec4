/** Queries of alert_templates (learned templates). No rules here. */
import { and, eq, getTableColumns, inArray, sql } from "drizzle-orm";
import type { Db } from "../../../db";
import { type AlertTemplateRow, alertTemplates as a } from "../../../db/schema";

export const templatesOfDomainsQuery = (db: Db, domains: string[]) =>
  db.select().from(a).where(inArray(a.sender_domain, domains)).orderBy(a.created_at, a.id);

export const insertTemplateRow = (db: Db, row: AlertTemplateRow) =>
  db.insert(a).values(row).onConflictDoNothing();

/**
 * The insert of a new row for a guarded batch: only when the statement before it changed a row
 * (`changes() > 0`, a resolve's "failure marked resolved by the row just inserted"). A row already
 * stored under its id is kept as it is, yet the no-op upsert counts as a change, so a ledger entry
 * guarded on this statement follows the guard, not whether the template was new.
 */
export const insertTemplateAfterChange = (db: Db, row: AlertTemplateRow) => {
  const values = Object.entries(getTableColumns(a)).map(([key, col]) => {
    const v = row[key as keyof AlertTemplateRow];
    return sql`${v === null ? null : col.mapToDriverValue(v)}`;
  });
  return db
    .insert(a)
    .select(sql`SELECT ${sql.join(values, sql`, `)} WHERE changes() > 0`)
    .onConflictDoUpdate({ target: a.id, set: { name: sql`${a.name}` } });
};

export const templateByIdQuery = (db: Db, id: string) => db.select().from(a).where(eq(a.id, id));

/** Counts one email read into a transaction. */
export async function noteRead(db: Db, id: string, nowIso: string): Promise<void> {
  await db
    .update(a)
    .set({ match_count: sql`${a.match_count} + 1`, last_matched_at: nowIso })
    .where(eq(a.id, id));
}

/**
 * The update of a template's learned columns (one of the caller's batch, with its ledger entry);
 * `afterChange`: only when the statement before it changed a row (a resolve's guarded batch).
 */
export const setPatternColumns = (
  db: Db,
  id: string,
  cols: Pick<AlertTemplateRow, "pattern" | "subject_words" | "example" | "updated_at">,
  afterChange = false,
) =>
  db
    .update(a)
    .set(cols)
    .where(afterChange ? and(eq(a.id, id), sql`changes() > 0`) : eq(a.id, id));

export const getTemplateRow = async (db: Db, id: string): Promise<AlertTemplateRow | null> =>
  (await templateByIdQuery(db, id).get()) ?? null;

export const listTemplateRows = (db: Db) => db.select().from(a).orderBy(a.institution, a.created_at).all();

export const renameTemplateRow = (db: Db, id: string, name: string, nowIso: string) =>
  db.update(a).set({ name, updated_at: nowIso }).where(eq(a.id, id));

export const deleteTemplateRow = (db: Db, id: string) => db.delete(a).where(eq(a.id, id));

/** Writes a whole row back; a row that still exists keeps its read counters (they count emails). */
export function restoreTemplateRow(db: Db, row: AlertTemplateRow) {
  const { id: _key, match_count: _n, last_matched_at: _at, ...rest } = row;
  return db.insert(a).values(row).onConflictDoUpdate({ target: a.id, set: rest });
}
