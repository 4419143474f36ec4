/** Queries of statement_csv_mappings (one confirmed mapping per CSV header signature). No rules here. */
import { eq } from "drizzle-orm";
import { type Db, schema } from "../../db";

const m = schema.statementCsvMappings;
export type CsvMappingInsert = typeof m.$inferInsert;

/** The stored mapping of a header signature, if any. */
export const mappingBySignature = (db: Db, signature: string) =>
  db.select().from(m).where(eq(m.signature, signature)).get();

/** Stores (or replaces) the mapping of its signature (unexecuted: for the verb's batch). */
export const upsertMappingQuery = (db: Db, values: CsvMappingInsert) =>
  db.insert(m).values(values).onConflictDoUpdate({ target: m.signature, set: values });
