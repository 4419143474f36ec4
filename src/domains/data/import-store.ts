/**
 * The database side of a backup import: which imported rows are new, identical or different, and
 * the staging that writes them atomically (restore-swap.ts). Drizzle only.
 */
import { asc, getTableColumns } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import { type Db, getDb } from "../../db/index";
import { IMPORT_TABLES, type ParsedBackup, type Row, rowKey, sameRow, type TableDef } from "./import-rules";

const PAGE = 1000;

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

/** A copy of a differing transaction kept beside the stored one: its own key, no dedup hash. */
export function keptCopy(row: Row, tag: string): Row {
  const name = String(row.DateFileName);
  const dot = name.lastIndexOf(".");
  const DateFileName = dot > 0 ? `${name.slice(0, dot)}${tag}${name.slice(dot)}` : `${name}${tag}`;
  return { ...row, DateFileName, TransactionHash: null };
}
