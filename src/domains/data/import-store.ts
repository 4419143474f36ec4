/**
 * The database side of a backup import: which imported rows are new, identical or different, and
 * the statements that write them. Drizzle only; written in batches (a whole journal does not fit
 * in one D1 batch, so a restore is atomic per batch of statements, not as a whole).
 */
import { and, asc, eq, getTableColumns, type SQL } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import { type Db, getDb } from "../../db/index";
import { bumpVersion } from "../../db/lists";
import type { ImportStrategy } from "./import-schemas";
import { IMPORT_TABLES, type ParsedBackup, type Row, rowKey, sameRow, type TableDef } from "./import-rules";

type Statement = BatchItem<"sqlite">;
const PAGE = 1000;
const BATCH = 80;

export type Verdict = "new" | "identical" | "different";
export interface TableDiff {
  name: string;
  def: TableDef;
  rows: { row: Row; verdict: Verdict }[];
}

function cols(def: TableDef): Record<string, SQLiteColumn> {
  return getTableColumns(def.table) as Record<string, SQLiteColumn>;
}

/**
 * The verdict of every imported key the journal already holds, reading the table in key-ordered
 * pages and comparing as it goes (a stored row is never kept, so a whole journal fits in memory).
 */
async function verdicts(db: Db, def: TableDef, imported: Map<string, Row>): Promise<Map<string, Verdict>> {
  const c = cols(def);
  const order = def.key.map((k) => asc(c[k]!));
  const out = new Map<string, Verdict>();
  for (let offset = 0; ; offset += PAGE) {
    const page = (await db
      .select()
      .from(def.table)
      .orderBy(...order)
      .limit(PAGE)
      .offset(offset)) as Row[];
    for (const stored of page) {
      const k = rowKey(def, stored);
      const row = imported.get(k);
      if (row) out.set(k, sameRow(row, stored) ? "identical" : "different");
    }
    if (page.length < PAGE) break;
  }
  return out;
}

/** Each imported row against the journal. */
export async function diffBackup(d1: D1Database, backup: ParsedBackup): Promise<TableDiff[]> {
  const db = getDb(d1);
  const out: TableDiff[] = [];
  for (const [name, rows] of Object.entries(backup.tables)) {
    const def = IMPORT_TABLES[name]!;
    const found = await verdicts(db, def, new Map(rows.map((r) => [rowKey(def, r), r])));
    out.push({
      name,
      def,
      rows: rows.map((row) => ({ row, verdict: found.get(rowKey(def, row)) ?? "new" })),
    });
  }
  return out;
}

const keyWhere = (def: TableDef, row: Row): SQL => {
  const c = cols(def);
  return and(...def.key.map((k) => eq(c[k]!, row[k] as string | number)))!;
};

/** A copy of a differing transaction kept beside the stored one: its own key, no dedup hash. */
function keptCopy(row: Row, tag: string): Row {
  const name = String(row.DateFileName);
  const dot = name.lastIndexOf(".");
  const DateFileName = dot > 0 ? `${name.slice(0, dot)}${tag}${name.slice(dot)}` : `${name}${tag}`;
  return { ...row, DateFileName, TransactionHash: null };
}

export interface WriteCounts {
  inserted: number;
  updated: number;
  skipped: number;
  config: Record<string, number>;
}

/** Writes the import; returns what it did. */
export async function applyBackup(
  d1: D1Database,
  diffs: TableDiff[],
  /** `copyTag` makes the keys of kept copies unique to this import. */
  opts: { strategy: ImportStrategy; applyConfig: boolean; nowIso: string; copyTag: string },
): Promise<WriteCounts> {
  const db = getDb(d1);
  const stmts: Statement[] = [];
  const counts: WriteCounts = { inserted: 0, updated: 0, skipped: 0, config: {} };
  let copies = 0;
  for (const { name, def, rows } of diffs) {
    if (def.kind === "config") {
      if (!opts.applyConfig) continue;
      // A versioned list is replaced whole; keyed documents (budget years, app config) row by row.
      if (def.list) stmts.push(db.delete(def.table), bumpVersion(db, def.list, opts.nowIso));
      else for (const { row } of rows) stmts.push(db.delete(def.table).where(keyWhere(def, row)));
      for (const { row } of rows) stmts.push(db.insert(def.table).values(row).onConflictDoNothing());
      counts.config[name] = rows.length;
      continue;
    }
    for (const { row, verdict } of rows) {
      if (verdict === "new") {
        stmts.push(db.insert(def.table).values(row).onConflictDoNothing());
        counts.inserted++;
      } else if (verdict === "identical" || opts.strategy === "skip") {
        counts.skipped++;
      } else if (opts.strategy === "overwrite") {
        // An update, not a replace: columns the source does not carry (a CSV has no email body) stay.
        stmts.push(db.update(def.table).set(row).where(keyWhere(def, row)));
        counts.updated++;
      } else if (name === "transactions") {
        stmts.push(
          db
            .insert(def.table)
            .values(keptCopy(row, `_${opts.copyTag}${++copies}`))
            .onConflictDoNothing(),
        );
        counts.inserted++;
      } else counts.skipped++;
    }
  }
  for (let i = 0; i < stmts.length; i += BATCH) {
    const chunk = stmts.slice(i, i + BATCH);
    await db.batch(chunk as [Statement, ...Statement[]]);
  }
  return counts;
}
