/**
 * The database side of a backup import: which imported rows are new, identical or different, and
 * the staging that writes them atomically (restore-swap.ts). Drizzle only.
 */
import { asc, getTableColumns } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import type { Db } from "../../db/index";
import { type PageSource, readPages } from "./pages";
import { IMPORT_TABLES, type ParsedBackup, type Row, rowKey, sameRow, type TableDef } from "./import-rules";

/** Stored rows per batch (several tables' pages share it: pages.ts). */
const PAGE = 1000;

export type Verdict = "new" | "identical" | "different";
export interface TableDiff {
  name: string;
  def: TableDef;
  rows: { row: Row; verdict: Verdict }[];
  /** How many rows the journal holds in this table (all were read). */
  stored: number;
}

type Statement = BatchItem<"sqlite">;

function cols(def: TableDef): Record<string, SQLiteColumn> {
  return getTableColumns(def.table) as Record<string, SQLiteColumn>;
}

/**
 * The verdict of every imported key the journal already holds, reading the table in key-ordered
 * pages and comparing as it goes (a stored row is never kept, so a whole journal fits in memory).
 */
function verdicts(db: Db, def: TableDef, imported: Map<string, Row>) {
  const c = cols(def);
  const order = def.key.map((k) => asc(c[k]!));
  const found = new Map<string, Verdict>();
  let offset = 0;
  const source: PageSource<Statement> = {
    // A restore's backup is most often of this very journal: its size is the best guess of ours.
    left: imported.size,
    page: (limit) =>
      db
        .select()
        .from(def.table)
        .orderBy(...order)
        .limit(limit)
        .offset(offset),
    take: (page) => {
      for (const stored of page as Row[]) {
        const k = rowKey(def, stored);
        const row = imported.get(k);
        if (row) found.set(k, sameRow(row, stored) ? "identical" : "different");
      }
      offset += page.length;
    },
  };
  return { source, found, stored: () => offset };
}

/** Each imported row against the journal: every table's pages ride together, at most PAGE stored rows a batch. */
export async function diffBackup(db: Db, backup: ParsedBackup): Promise<TableDiff[]> {
  const reads = Object.entries(backup.tables).map(([name, rows]) => {
    const def = IMPORT_TABLES[name]!;
    return { name, def, rows, ...verdicts(db, def, new Map(rows.map((r) => [rowKey(def, r), r]))) };
  });
  const run = (statements: Statement[]) =>
    db.batch(statements as [Statement, ...Statement[]]) as Promise<unknown[][]>;
  await readPages(
    run,
    reads.map((r) => r.source),
    { budget: PAGE },
  );
  return reads.map(({ name, def, rows, found, stored }) => ({
    name,
    def,
    rows: rows.map((row) => ({ row, verdict: found.get(rowKey(def, row)) ?? ("new" as const) })),
    stored: stored(),
  }));
}

/** A copy of a differing transaction kept beside the stored one: its own key, no dedup hash. */
export function keptCopy(row: Row, tag: string): Row {
  const name = String(row.DateFileName);
  const dot = name.lastIndexOf(".");
  const DateFileName = dot > 0 ? `${name.slice(0, dot)}${tag}${name.slice(dot)}` : `${name}${tag}`;
  return { ...row, DateFileName, TransactionHash: null };
}
