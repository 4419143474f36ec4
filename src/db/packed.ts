/**
 * Packed rows: a hot query hands its rows over as ONE JSON text (each row a `json_array`, joined
 * by `group_concat`) instead of rows of cells: D1 hands one value over far cheaper than thousands
 * of cells. A shape declares the columns once (name, SQL, decoder) and gives the three parts that
 * must agree: the row's `json_array`, the packing of a subquery's rows, and the typed decoding.
 * The array positions never leave this file.
 */
import { type SQL, type Subquery, sql } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import type { Db } from ".";

export interface PackedColumn<T> {
  sql: SQL | SQLiteColumn;
  decode: (cell: unknown) => T;
}

/** The decoders: a JSON cell is text, a number or null. */
export const cell = {
  text: (v: unknown) => String(v ?? ""),
  textOrNull: (v: unknown) => (v === null || v === undefined ? null : String(v)),
  number: (v: unknown) => Number(v ?? 0),
  numberOrNull: (v: unknown) => (v === null || v === undefined ? null : Number(v)),
  /** As stored: the column's own JSON value (text, number or null). */
  raw: <T>(v: unknown) => v as T,
};

/** A column of a packed row. */
export const col = <T>(expr: SQL | SQLiteColumn, decode: (cell: unknown) => T): PackedColumn<T> => ({
  sql: expr,
  decode,
});

type PackedRow<C extends Record<string, PackedColumn<unknown>>> = {
  [K in keyof C]: C[K] extends PackedColumn<infer T> ? T : never;
};

interface PackedShape<C extends Record<string, PackedColumn<unknown>>> {
  /** The columns' names, in the arrays' order. */
  keys: readonly (keyof C & string)[];
  /** One row as a JSON array of the columns in declared order. */
  array(): SQL<string>;
  /** The same, aliased `j` (what `pack` joins). */
  row(): SQL.Aliased<string>;
  /** A hand-written FROM's rows as ONE JSON array text (a scalar subquery), in its order. */
  packFrom(from: SQL): SQL<string>;
  /** A subquery's rows (each its `j`) as JSON array texts of PACK_PART_ROWS rows, in the subquery's order. */
  pack<R extends Subquery & { j: SQL.Aliased<string> }>(db: Db, rows: R): ReturnType<typeof packQuery<R>>;
  /** The packed text (null or undefined: no row) as typed row objects, in the text's order. */
  decode(json: string | null | undefined): PackedRow<C>[];
  /** `pack`'s parts as typed row objects, in order. */
  decodeParts(parts: readonly { json: string | null }[]): PackedRow<C>[];
  /** The packed text as arrays in declared order, undecoded (the CSV export writes cells as they are). */
  arrays(json: string | null | undefined): unknown[][];
}

/**
 * Rows per packed value: D1 caps a value at 2,000,000 bytes, and a month of a large journal can
 * hold 10,000 rows of ~200 bytes. `pack` hands a subquery's rows over in parts of this many rows
 * (one result row each, in order; none when there is no row); readers take every part.
 */
export const PACK_PART_ROWS = 2_000;

const packQuery = <R extends Subquery & { j: SQL.Aliased<string> }>(db: Db, rows: R) =>
  db
    .select({ json: sql<string>`'[' || group_concat(j) || ']'` })
    .from(
      sql`(SELECT j, (row_number() OVER () - 1) / ${sql.raw(String(PACK_PART_ROWS))} AS part FROM ${rows})`,
    )
    .groupBy(sql`part`)
    .orderBy(sql`part`);

export function packedShape<C extends Record<string, PackedColumn<unknown>>>(columns: C): PackedShape<C> {
  const keys = Object.keys(columns) as (keyof C & string)[];
  const decoders = keys.map((k) => columns[k]!.decode);
  const cells = sql.join(
    keys.map((k) => sql`${columns[k]!.sql}`),
    sql`, `,
  );
  const arrays = (json: string | null | undefined) => JSON.parse(json ?? "[]") as unknown[][];
  const array = () => sql<string>`json_array(${cells})`;
  return {
    keys,
    array,
    row: () => array().as("j"),
    packFrom: (from) =>
      sql<string>`(SELECT '[' || COALESCE(group_concat(${array()}), '') || ']' FROM ${from})`,
    pack: packQuery,
    arrays,
    decodeParts(parts) {
      return parts.length === 1 ? this.decode(parts[0]!.json) : parts.flatMap((p) => this.decode(p.json));
    },
    decode(json) {
      const rows = arrays(json);
      const out = new Array<PackedRow<C>>(rows.length);
      for (let i = 0; i < rows.length; i++) {
        const a = rows[i]!;
        const r: Record<string, unknown> = {};
        for (let j = 0; j < keys.length; j++) r[keys[j]!] = decoders[j]!(a[j]);
        out[i] = r as PackedRow<C>;
      }
      return out;
    },
  };
}
