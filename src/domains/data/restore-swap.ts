/**
 * Writing a restore all-or-nothing. D1 has no interactive transaction, but one `db.batch` is
 * atomic: the rows go first into restore_staging (as many batches as they take; a kill here leaves
 * only staging rows), then ONE batch moves every table's rows in with a few INSERT … SELECT /
 * UPDATE … FROM statements and deletes the staging rows. The same batch first checks that the
 * configuration lists it replaces have not changed since the preview: a changed list makes a
 * statement fail (NOT NULL), which rolls the whole batch back, and the restore answers 409.
 */
import { eq, getTableColumns, lt, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { getTableConfig } from "drizzle-orm/sqlite-core";
import { type Db, getDb } from "../../db/index";
import { batchOf, bumpVersion } from "../../db/lists";
import type { Batch } from "../../lib/context";
import { configVersions, restoreStaging } from "../../db/schema";
import { conflict } from "../../lib/errors";
import { IMPORT_TABLES, type Row } from "./import-rules";
import type { ImportStrategy } from "./import-schemas";
import { keptCopy, type TableDiff } from "./import-store";

type Statement = BatchItem<"sqlite">;
type Op = "insert" | "update" | "replace";
const ROWS_PER_INSERT = 12; // 7 bound values a row, under D1's 100 per statement
const INSERTS_PER_BATCH = 40;
const STAGING_TTL_MS = 60 * 60 * 1000;

export interface Written {
  inserted: number;
  updated: number;
  skipped: number;
}

/** Every data table's rows written (`tables`, by table; the totals beside) and config rows restored. */
interface WriteCounts extends Written {
  tables: Record<string, Written>;
  config: Record<string, number>;
}

/** The versioned lists a restore with apply_config replaces, and their versions now. */
export async function listVersions(d1: D1Database): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const def of Object.values(IMPORT_TABLES)) if (def.list) out[def.list] = 0;
  for (const r of await getDb(d1).select().from(configVersions)) if (r.name in out) out[r.name] = r.version;
  return out;
}

/** What the restore would write, as staged rows (no I/O). */
export function plan(
  diffs: TableDiff[],
  opts: { strategy: ImportStrategy; applyConfig: boolean; copyTag: string },
) {
  const staged: { tbl: string; op: Op; row: Row }[] = [];
  const counts: WriteCounts = { inserted: 0, updated: 0, skipped: 0, tables: {}, config: {} };
  const replacedLists: string[] = [];
  let copies = 0;
  for (const { name, def, rows } of diffs) {
    if (def.kind === "config") {
      if (!opts.applyConfig) continue;
      if (def.list) replacedLists.push(name);
      for (const { row } of rows) staged.push({ tbl: name, op: "replace", row });
      counts.config[name] = rows.length;
      continue;
    }
    const t: Written = { inserted: 0, updated: 0, skipped: 0 };
    counts.tables[name] = t;
    for (const { row, verdict } of rows) {
      if (verdict === "new") {
        staged.push({ tbl: name, op: "insert", row });
        t.inserted++;
      } else if (verdict === "identical" || opts.strategy === "skip") t.skipped++;
      else if (opts.strategy === "overwrite") {
        // An update, not a replace: columns the source does not carry (a CSV has no email body) stay.
        staged.push({ tbl: name, op: "update", row });
        t.updated++;
      } else if (name === "transactions") {
        staged.push({ tbl: name, op: "insert", row: keptCopy(row, `_${opts.copyTag}${++copies}`) });
        t.inserted++;
      } else t.skipped++;
    }
    counts.inserted += t.inserted;
    counts.updated += t.updated;
    counts.skipped += t.skipped;
  }
  return { staged, counts, replacedLists };
}

/** Staging rows of restores that never finished (killed, or failed), past their hour. */
export function staleStagingQuery(db: Db, now: Date) {
  const cutoff = new Date(now.getTime() - STAGING_TTL_MS).toISOString();
  return db.delete(restoreStaging).where(lt(restoreStaging.created_at, cutoff));
}

/** Writes the plan: staging in batches, then the one atomic swap. */
export async function applyPlan(
  d1: D1Database,
  p: ReturnType<typeof plan>,
  opts: {
    token: string;
    nowIso: string;
    versions: Record<string, number> | null;
    batch: Batch;
  },
): Promise<WriteCounts> {
  const db = getDb(d1);
  const groups = new Map<string, { tbl: string; op: Op; cols: string[] }>();
  // A former attempt's staging rows go first; full batches of staging rows are written as they
  // fill, and the rest (all of them, for a household of normal size) ride in the swap's batch.
  const inserts: Statement[] = [db.delete(restoreStaging).where(eq(restoreStaging.token, opts.token))];
  for (let i = 0; i < p.staged.length; i += ROWS_PER_INSERT) {
    const values = p.staged.slice(i, i + ROWS_PER_INSERT).map((s, j) => {
      const cols = Object.keys(s.row).sort();
      const colsKey = cols.join(",");
      groups.set(`${s.tbl}\u0001${s.op}\u0001${colsKey}`, { tbl: s.tbl, op: s.op, cols });
      return {
        token: opts.token,
        seq: i + j,
        tbl: s.tbl,
        op: s.op,
        cols: colsKey,
        row: JSON.stringify(s.row),
        created_at: opts.nowIso,
      };
    });
    inserts.push(db.insert(restoreStaging).values(values));
    if (inserts.length === INSERTS_PER_BATCH)
      await db.batch(inserts.splice(0) as [Statement, ...Statement[]]);
  }

  const swap: Statement[] = [...inserts];
  const lists = p.replacedLists.map((t) => IMPORT_TABLES[t]!.list!);
  if (opts.versions) for (const list of lists) swap.push(guard(db, list, opts.versions[list] ?? 0));
  // Tables in restore order; a replaced list is emptied first, then refilled.
  for (const [name, def] of Object.entries(IMPORT_TABLES)) {
    if (p.replacedLists.includes(name))
      swap.push(db.delete(def.table), bumpVersion(db, def.list!, opts.nowIso));
    for (const g of groups.values()) if (g.tbl === name) swap.push(move(db, opts.token, g));
  }
  swap.push(db.delete(restoreStaging).where(eq(restoreStaging.token, opts.token)));
  try {
    // The verb's batch: the restore's ledger entry rides in the swap.
    await opts.batch(batchOf(swap.map((st) => compiled(d1, st))));
    return p.counts;
  } catch (err) {
    await db.delete(restoreStaging).where(eq(restoreStaging.token, opts.token));
    if (opts.versions) {
      const now = await listVersions(d1);
      const changed = lists.filter((l) => now[l] !== opts.versions![l]);
      if (changed.length)
        throw conflict(
          `Nothing was restored: your ${changed.join(", ").replaceAll("_", " ")} changed after the preview ` +
            "(or while the restore ran). Check the backup again to see the current differences.",
          "CONFLICT",
          { changed },
        );
    }
    throw err;
  }
}

/**
 * A statement as drizzle's batch runs it, compiled here: drizzle's batch cannot take a `sql`
 * template with parameters (its raw statement carries no prepared D1 statement to bind), so each
 * swap statement comes prepared, with its own SQL and parameters; the batch binds and runs it.
 */
function compiled(d1: D1Database, st: Statement): Statement {
  const q =
    "toSQL" in st && typeof st.toSQL === "function"
      ? (st.toSQL() as { sql: string; params: unknown[] })
      : (st as unknown as { getQuery(): { sql: string; params: unknown[] } }).getQuery();
  const prepared = { stmt: d1.prepare(q.sql), getQuery: () => q, mapResult: (r: unknown) => r };
  return { _prepare: () => prepared } as unknown as Statement;
}

/** A statement that fails (NOT NULL) when the list's version is no longer `version`. */
function guard(db: Db, list: string, version: number): Statement {
  return db.run(
    sql`INSERT INTO restore_staging (token, seq, tbl, op, cols, row, created_at)
        SELECT NULL, 0, 'guard', 'guard', '', '', ''
        WHERE COALESCE((SELECT version FROM config_versions WHERE name = ${list}), 0) <> ${version}`,
  );
}

/** One statement moving every staged row of (table, op, columns) into the table. */
function move(db: Db, token: string, g: { tbl: string; op: Op; cols: string[] }): Statement {
  const def = IMPORT_TABLES[g.tbl]!;
  const columns = getTableColumns(def.table);
  const names = g.cols.map((c) => columns[c]!.name);
  const value = (n: string) => sql`json_extract(s.row, ${`$.${n}`})`;
  const where = sql`s.token = ${token} AND s.tbl = ${g.tbl} AND s.op = ${g.op} AND s.cols = ${g.cols.join(",")}`;
  const target = sql.identifier(getTableConfig(def.table).name);
  const list = sql.join(
    names.map((n) => sql.identifier(n)),
    sql`, `,
  );
  const values = sql.join(names.map(value), sql`, `);
  const keys = def.key.map((k) => columns[k]!.name);
  if (g.op === "update" && names.some((n) => !keys.includes(n))) {
    const set = sql.join(
      names.filter((n) => !keys.includes(n)).map((n) => sql`${sql.identifier(n)} = ${value(n)}`),
      sql`, `,
    );
    const match = sql.join(
      keys.map((k) => sql`${target}.${sql.identifier(k)} = ${value(k)}`),
      sql` AND `,
    );
    return db.run(sql`UPDATE ${target} SET ${set} FROM restore_staging AS s WHERE ${where} AND ${match}`);
  }
  const verb = g.op === "replace" ? sql`INSERT OR REPLACE INTO` : sql`INSERT INTO`;
  const tail = g.op === "replace" ? sql`` : sql` ON CONFLICT DO NOTHING`;
  return db.run(
    sql`${verb} ${target} (${list}) SELECT ${values} FROM restore_staging AS s WHERE ${where} ORDER BY s.seq${tail}`,
  );
}
