/** Queries of statement_csv_mappings (one confirmed mapping per CSV header signature). No rules here. */
import { eq } from "drizzle-orm";
import { type Db, schema } from "../../db";

const m = schema.statementCsvMappings;
export type CsvMappingRow = typeof m.$inferSelect;

/** The stored mapping of a header signature (unexecuted: for a caller's read batch). */
export const mappingBySignatureQuery = (db: Db, signature: string) =>
  db.select().from(m).where(eq(m.signature, signature)).limit(1);

/** Stores (or replaces) the mapping of its signature (unexecuted: for the verb's batch). */
export const upsertMappingQuery = (db: Db, values: typeof m.$inferInsert) =>
  db.insert(m).values(values).onConflictDoUpdate({ target: m.signature, set: values });
