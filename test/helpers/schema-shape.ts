/**
 * One comparable description of a schema, from either side: the drizzle tables (src/db/schema.ts)
 * or a live D1 database built by migrations/. The drift test compares the two.
 */
import { Column, is, type SQL } from "drizzle-orm";
import { getTableConfig, SQLiteTable } from "drizzle-orm/sqlite-core";

export interface ColumnShape {
  type: string;
  notNull: boolean;
  hasDefault: boolean;
}
export interface IndexShape {
  unique: boolean;
  /** Key columns in order, with a collation suffix when one is set (`Company COLLATE NOCASE`). */
  columns: string[];
}
export interface TableShape {
  columns: Record<string, ColumnShape>;
  primaryKey: string[];
  indexes: Record<string, IndexShape>;
}
export type SchemaShape = Record<string, TableShape>;

/** The description of every table exported by a drizzle schema module. */
export function shapeOfDrizzle(module: Record<string, unknown>): SchemaShape {
  const out: SchemaShape = {};
  for (const value of Object.values(module)) {
    if (!is(value, SQLiteTable)) continue;
    const cfg = getTableConfig(value);
    const pk =
      cfg.primaryKeys[0]?.columns.map((c) => c.name) ??
      cfg.columns.filter((c) => c.primary).map((c) => c.name);
    const columns: Record<string, ColumnShape> = {};
    for (const c of cfg.columns) {
      columns[c.name] = {
        type: c.getSQLType().toUpperCase(),
        // SQLite reports a lone PRIMARY KEY column as nullable unless NOT NULL is written.
        notNull: c.notNull && !(c.primary && pk.length === 1 && cfg.primaryKeys.length === 0),
        // An INTEGER PRIMARY KEY is the rowid: drizzle marks it defaulted, SQLite reports no default.
        hasDefault: c.hasDefault && !(c.primary && c.getSQLType() === "integer"),
      };
    }
    const indexes: Record<string, IndexShape> = {};
    for (const idx of cfg.indexes) {
      indexes[idx.config.name] = {
        unique: idx.config.unique,
        columns: idx.config.columns.map(indexColumn),
      };
    }
    // Column-level .unique() becomes an automatic index in SQLite; it is compared as a column
    // constraint (autoindex), so name it the same way on both sides.
    for (const c of cfg.columns) {
      if (c.isUnique) indexes[`unique:${c.name}`] = { unique: true, columns: [c.name] };
    }
    out[cfg.name] = { columns, primaryKey: pk, indexes };
  }
  return out;
}

function indexColumn(c: Column | SQL): string {
  if (is(c, Column)) return c.name;
  let name = "";
  let rest = "";
  for (const chunk of c.queryChunks) {
    if (is(chunk, Column)) name = chunk.name;
    else if (typeof chunk === "object" && chunk && "value" in chunk)
      rest += (chunk as { value: string[] }).value.join("");
  }
  const coll = /COLLATE\s+(\w+)/i.exec(rest)?.[1];
  return coll ? `${name} COLLATE ${coll.toUpperCase()}` : name;
}

const IGNORED_TABLES = /^(sqlite_|_cf_|d1_migrations$)/;

/** The description of every table in a live D1 database. */
export async function shapeOfDatabase(db: D1Database): Promise<SchemaShape> {
  const { results: tables } = await db
    .prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
    .all<{ name: string }>();
  const out: SchemaShape = {};
  for (const { name } of tables) {
    if (IGNORED_TABLES.test(name)) continue;
    const { results: cols } = await db.prepare(`PRAGMA table_info("${name}")`).all<{
      name: string;
      type: string;
      notnull: number;
      dflt_value: string | null;
      pk: number;
    }>();
    const columns: Record<string, ColumnShape> = {};
    for (const c of cols) {
      columns[c.name] = {
        type: c.type.toUpperCase(),
        notNull: c.notnull === 1,
        hasDefault: c.dflt_value !== null,
      };
    }
    const primaryKey = cols
      .filter((c) => c.pk > 0)
      .sort((a, b) => a.pk - b.pk)
      .map((c) => c.name);
    const { results: list } = await db.prepare(`PRAGMA index_list("${name}")`).all<{
      name: string;
      unique: number;
      origin: string;
    }>();
    const indexes: Record<string, IndexShape> = {};
    for (const idx of list) {
      if (idx.origin === "pk") continue;
      const { results: info } = await db.prepare(`PRAGMA index_xinfo("${idx.name}")`).all<{
        seqno: number;
        name: string | null;
        coll: string | null;
        key: number;
      }>();
      const keyCols = info
        .filter((i) => i.key === 1)
        .sort((a, b) => a.seqno - b.seqno)
        .map((i) =>
          i.coll && i.coll.toUpperCase() !== "BINARY"
            ? `${i.name} COLLATE ${i.coll.toUpperCase()}`
            : `${i.name}`,
        );
      const key = idx.origin === "u" && keyCols.length === 1 ? `unique:${keyCols[0]}` : idx.name;
      indexes[key] = { unique: idx.unique === 1, columns: keyCols };
    }
    out[name] = { columns, primaryKey, indexes };
  }
  return out;
}

/** Human-readable differences (empty when the two agree). */
export function diffShapes(code: SchemaShape, db: SchemaShape): string[] {
  const out: string[] = [];
  for (const t of new Set([...Object.keys(code), ...Object.keys(db)])) {
    const a = code[t];
    const b = db[t];
    if (!a) {
      out.push(`table ${t}: in the migrations, not in src/db/schema.ts`);
      continue;
    }
    if (!b) {
      out.push(`table ${t}: in src/db/schema.ts, not in the migrations`);
      continue;
    }
    for (const c of new Set([...Object.keys(a.columns), ...Object.keys(b.columns)])) {
      const x = a.columns[c];
      const y = b.columns[c];
      if (!x) out.push(`${t}.${c}: in the migrations only`);
      else if (!y) out.push(`${t}.${c}: in schema.ts only`);
      else
        for (const k of ["type", "notNull", "hasDefault"] as const)
          if (x[k] !== y[k]) out.push(`${t}.${c}: ${k} is ${x[k]} in schema.ts, ${y[k]} in the migrations`);
    }
    if (a.primaryKey.join(",") !== b.primaryKey.join(","))
      out.push(`${t}: primary key (${a.primaryKey}) in schema.ts, (${b.primaryKey}) in the migrations`);
    for (const i of new Set([...Object.keys(a.indexes), ...Object.keys(b.indexes)])) {
      const x = a.indexes[i];
      const y = b.indexes[i];
      if (!x) out.push(`${t}: index ${i} in the migrations only`);
      else if (!y) out.push(`${t}: index ${i} in schema.ts only`);
      else if (x.unique !== y.unique || x.columns.join(",") !== y.columns.join(","))
        out.push(
          `${t}: index ${i} is ${JSON.stringify(x)} in schema.ts, ${JSON.stringify(y)} in the migrations`,
        );
    }
  }
  return out;
}
