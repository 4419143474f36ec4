/**
 * CSV column mappings: guessed at the first upload of a header layout, confirmed once by the
 * person (with the institution's name) and used for every later file with the same header.
 */
import type { Db } from "../../db";
import { validationError } from "../../lib/errors";
import { type CsvMapping, csvTable } from "./parsers/csv";
import { type CsvMappingRow, mappingBySignatureQuery, upsertMappingQuery } from "./csv-mapping-queries";
import { readCsvMapping } from "./stored";

export const signatureOf = (header: string[]) => header.map((h) => h.trim().toLowerCase()).join("|");

/** The read of this CSV's header layout's stored mapping, for a caller's batch (none: no header). */
export function mappingQueryFor(db: Db, text: string) {
  const table = csvTable(text);
  return table ? mappingBySignatureQuery(db, signatureOf(table.header)) : null;
}

/** The confirmed mapping among the read's rows, if any. */
export const confirmedOf = (rows: readonly CsvMappingRow[] | undefined) => {
  const row = rows?.[0];
  return row ? { institution: row.institution, mapping: readCsvMapping(row.mapping) } : null;
};

/** The confirmed mapping of this CSV's header layout, if any. */
export async function storedMapping(db: Db, text: string) {
  const query = mappingQueryFor(db, text);
  return query ? confirmedOf(await query) : null;
}

/** Checks a mapping against the header it is for (column indexes exist, amounts are mapped). */
export function checkMapping(header: string[], map: CsvMapping): void {
  const cols = [
    map.date,
    map.description,
    map.amount,
    map.withdrawal,
    map.deposit,
    map.balance,
    map.direction ?? null,
  ];
  const bad = cols.some((c) => c !== null && (c < 0 || c >= header.length));
  const amounts = map.amount !== null || (map.withdrawal !== null && map.deposit !== null);
  if (bad || !amounts) {
    const msg = bad
      ? "A mapped column is not in this file's header"
      : "Map one amount column, or both withdrawal and deposit";
    throw validationError([{ loc: ["body", "mapping"], msg, type: "value_error" }], msg);
  }
}

export function saveMappingQuery(
  db: Db,
  header: string[],
  institution: string,
  map: CsvMapping,
  nowIso: string,
) {
  const values = {
    signature: signatureOf(header),
    institution,
    mapping: map,
    confirmed_at: nowIso,
  };
  return upsertMappingQuery(db, values);
}
