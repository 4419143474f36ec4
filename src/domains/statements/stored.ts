/**
 * The stored JSON of statements, read with its shape: `statements.warnings`, `statements.csv_mapping`,
 * `statement_rows.candidates` (amounts in cents) and `statement_csv_mappings.mapping`.
 */
import { z } from "zod";
import { storedJson } from "../../db/json";
import type { Cents } from "../../lib/money";
import type { CsvMapping } from "./parsers/csv";
import { CsvMappingSchema, CsvState } from "./schemas";

export type StoredCsvState = z.infer<typeof CsvState>;

const dbMatch = z.object({
  forwarded_to: z.string(),
  date_file_name: z.string(),
  company: z.string().nullable(),
  amount: z.number().int().nullable() as z.ZodType<Cents | null>,
  category: z.string().nullable(),
});
/** A candidate alert row of an ambiguous statement row (amount in cents). */
export type StoredDbMatch = z.infer<typeof dbMatch>;

/** What the parse could not confirm; unreadable → no warnings shown (logged). */
export const readWarnings = storedJson("statements.warnings", z.array(z.string()), { value: () => [] });
export const readCsvState = storedJson("statements.csv_mapping", CsvState.nullable());
export const readCandidates = storedJson("statement_rows.candidates", z.array(dbMatch).nullable());
export const readCsvMapping = storedJson(
  "statement_csv_mappings.mapping",
  CsvMappingSchema as z.ZodType<CsvMapping>,
);
