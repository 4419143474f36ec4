/**
 * The JSON-in-TEXT column of every table: drizzle's JSON mode (`text(name, { mode: "json" })`, same
 * SQL type, same `dataType` "json", same writing), except that reading a cell whose text is not
 * JSON does not throw. drizzle's own decoder is a bare `JSON.parse`: one hand-edited cell made every
 * read of its row a 500. Here such a cell reads as `NOT_JSON` (src/db/json.ts), which the column's
 * typed reader (`storedJson`) treats as out of shape: its fallback where it has one (logged), else
 * its named `StoredJsonError`. The good path costs what `JSON.parse` costs (no copy, no check).
 */
import type { ColumnBaseConfig, ColumnBuilderBaseConfig } from "drizzle-orm";
import {
  type SQLiteTextJsonBuilderInitial,
  SQLiteTextJson,
  SQLiteTextJsonBuilder,
} from "drizzle-orm/sqlite-core";
import { decodeJsonCell } from "./json";

class ForgivingJson extends SQLiteTextJson<ColumnBaseConfig<"json", "SQLiteTextJson">> {
  override mapFromDriverValue(value: string): unknown {
    return decodeJsonCell(value);
  }
}

class ForgivingJsonBuilder extends SQLiteTextJsonBuilder<ColumnBuilderBaseConfig<"json", "SQLiteTextJson">> {
  /** drizzle calls this when the table is declared (an internal of the builder it replaces). */
  build(table: unknown): ForgivingJson {
    const config = (this as unknown as { config: unknown }).config;
    return new ForgivingJson(table as never, config as never);
  }
}

/** A JSON-in-TEXT column: `jsonText("data").$type<T>()` (for `text("data", { mode: "json" })`). */
export function jsonText<TName extends string>(name: TName): SQLiteTextJsonBuilderInitial<TName> {
  return new ForgivingJsonBuilder(name) as unknown as SQLiteTextJsonBuilderInitial<TName>;
}
