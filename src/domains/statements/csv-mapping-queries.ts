/** Queries of statement_csv_mappings (one confirmed mapping per CSV header signature). No rules here. */
import { and, eq, exists } from "drizzle-orm";
import { type Db, schema } from "../../db";

const m = schema.statementCsvMappings;
const s = schema.statements;
export type CsvMappingInsert = typeof m.$inferInsert;
export type CsvMappingRow = typeof m.$inferSelect;

/** The stored mapping of a header signature, if any. */
export const mappingBySignature = (db: Db, signature: string) =>
  db.select().from(m).where(eq(m.signature, signature)).get();

/** The stored mapping of a header signature (unexecuted: for a caller's read batch). */
export const mappingBySignatureQuery = (db: Db, signature: string) =>
  db.select().from(m).where(eq(m.signature, signature)).limit(1);

/**
 * Every stored mapping when statement `id` is a CSV, else none (unexecuted): read with the
 * statement, before its file names the header (the table holds one row per confirmed layout).
 */
export const mappingsIfCsvQuery = (db: Db, id: string) =>
  db
    .select()
    .from(m)
    .where(
      exists(
        db
          .select({ one: s.id })
          .from(s)
          .where(and(eq(s.id, id), eq(s.file_kind, "csv"))),
      ),
    );

/** Stores (or replaces) the mapping of its signature (unexecuted: for the verb's batch). */
export const upsertMappingQuery = (db: Db, values: CsvMappingInsert) =>
  db.insert(m).values(values).onConflictDoUpdate({ target: m.signature, set: values });
