/**
 * Full-data backup (format 2): a zip streamed as it is built (fflate): the manifest first, one JSON
 * file per table read in rowid pages, then every file the rows point to (export-files.ts). The
 * pages of several tables (and the files' key lists) ride in one batch of at most BATCH_ROWS rows
 * (pages.ts): a household of normal size is read in a trip or two after the inventory.
 * Quarantined emails are included; secrets never are. Memory stays at a batch of rows or one
 * chunk of one file, whatever the journal's size (bench/backup-export.mjs measures it).
 */
import { log } from "../../lib/log";
import type { ServiceCtx } from "../../lib/context";
import { ZipWriter } from "../../lib/zip-writer";
import { fileSources } from "./export-files";
import { firstPages, readPages, type SizedSource, takeFirstPages } from "./pages";
import { EXCLUDED_TABLES, EXPORTED_TABLES, shapeRow } from "./rules";

type Stmt = D1PreparedStatement;

/** The statements of the inventory: the schema versions, then every table's row count. */
const inventoryStatements = (d1: D1Database, tables: readonly string[]) => [
  d1.prepare("SELECT version FROM schema_version ORDER BY version"),
  ...tables.map((t) => d1.prepare(`SELECT COUNT(*) AS n FROM "${t}"`)),
];

/** The inventory from its statements' results (in inventoryStatements' order). */
function inventoryOf(tables: readonly string[], [versions, ...sizes]: unknown[][]) {
  const counts: Record<string, number> = {};
  tables.forEach((t, i) => {
    counts[t] = Number((sizes[i]?.[0] as { n?: number } | undefined)?.n ?? 0);
  });
  const applied = (versions ?? []) as { version: number }[];
  return { tables: [...tables], counts, versions: applied.map((r) => Number(r.version)) };
}

/**
 * The fallback when the first batch fails (a table missing: never once migrated): the exported
 * tables this database has, read from sqlite_master, then their counts (two trips).
 */
export async function inventory(d1: D1Database) {
  const marks = EXPORTED_TABLES.map(() => "?").join(", ");
  const { results } = await d1
    .prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND name IN (${marks})`)
    .bind(...EXPORTED_TABLES)
    .all<{ name: string }>();
  const present = new Set(results.map((r) => r.name));
  const tables = EXPORTED_TABLES.filter((t) => present.has(t));
  return inventoryOf(tables, await runner(d1)(inventoryStatements(d1, tables)));
}

/** A table's page in rowid order after a rowid (the SQL ends in LIMIT: the caller adds it). */
export const tablePageSql = (table: string) =>
  `SELECT rowid AS _rid, * FROM "${table}" WHERE rowid > ? ORDER BY rowid LIMIT`;

/** A table read in rowid order into its zip entry: every stored column, as SQLite has it. */
function tableSource(d1: D1Database, zip: ZipWriter, table: string): SizedSource<Stmt> {
  let after = 0;
  let n = 0;
  let file: ReturnType<ZipWriter["entry"]> | null = null;
  const sql = tablePageSql(table);
  return {
    rows: `SELECT 1 FROM "${table}"`,
    page: (limit) => d1.prepare(`${sql} ?`).bind(after, limit),
    pageUpTo: (limit) => d1.prepare(`${sql} ${limit}`).bind(after),
    take: async (rows, last) => {
      if (!file) {
        file = zip.entry(`${table}.json`);
        file.add("[");
      }
      for (const row of rows) {
        file.add(`${n === 0 ? "\n" : ",\n"}${JSON.stringify(shapeRow(table, row))}`);
        n++;
      }
      after = Number(rows.at(-1)?._rid ?? after);
      if (last) await file.end("\n]\n");
      else await zip.flush();
    },
  };
}

/** Runs D1 statements as one batch. */
const runner = (d1: D1Database) => async (statements: Stmt[]) =>
  (await d1.batch<Record<string, unknown>>(statements)).map((r) => r.results);

/** The backup's manifest.json (the first entry: a reader knows the format before any table). */
export const manifestText = (
  ctx: Pick<ServiceCtx, "env" | "clock">,
  versions: number[],
  counts: Record<string, number>,
) =>
  `${JSON.stringify(
    {
      format: "finance-journal-backup",
      format_version: 2,
      exported_at: ctx.clock().toISOString(),
      app_version: ctx.env.APP_VERSION ?? null,
      schema_versions: versions,
      counts,
      excluded: EXCLUDED_TABLES,
      files:
        "files/attachments/<id> and files/statements/<id> hold the stored file of that row; " +
        "files/emails/... the raw emails rows point to (FileName, raw_key). A restore derives " +
        "every storage key itself and checks each file against its row's hash.",
    },
    null,
    2,
  )}\n`;

/** Writes the zip into `writable`; resolves when the archive is complete. */
export async function writeBackup(
  ctx: Pick<ServiceCtx, "env" | "clock">,
  writable: WritableStream<Uint8Array>,
) {
  const d1 = ctx.env.DB;
  const zip = new ZipWriter(writable);
  const manifest = (versions: number[], counts: Record<string, number>) =>
    zip.text("manifest.json", manifestText(ctx, versions, counts));
  try {
    const files = fileSources(d1, ctx.env.FILES, zip);
    const sourcesOf = (tables: readonly string[]) => [
      ...tables.map((t) => tableSource(d1, zip, t)),
      ...files.sources,
    ];
    // ONE trip: the inventory (versions, every count) and every source's first page, sized in SQL
    // from the same counts so the batch holds at most BATCH_ROWS rows.
    const sources = sourcesOf(EXPORTED_TABLES);
    const head = inventoryStatements(d1, EXPORTED_TABLES);
    let first: unknown[][] | null = null;
    try {
      first = await runner(d1)([...head, ...firstPages(sources)]);
    } catch (err) {
      log("warn", "data_export.inventory_fallback", { error: String(err) });
    }
    let open: SizedSource<Stmt>[];
    if (first) {
      const { counts, versions } = inventoryOf(EXPORTED_TABLES, first.slice(0, head.length));
      // The manifest comes first, so a reader knows the format before any table.
      await manifest(versions, counts);
      const sizes = [...EXPORTED_TABLES.map((t) => counts[t] ?? 0), ...files.sizes(counts)];
      open = await takeFirstPages(sources, first.slice(head.length), sizes);
    } else {
      const { tables, counts, versions } = await inventory(d1);
      await manifest(versions, counts);
      open = sourcesOf(tables);
      const sizes = [...tables.map((t) => counts[t] ?? 0), ...files.sizes(counts)];
      open.forEach((s, i) => {
        s.left = sizes[i];
      });
    }
    await readPages(runner(d1), open, { ordered: true });
    log("info", "data_export.files", { ...files.counts });
    await zip.close();
  } catch (err) {
    log("error", "data_export.failed", { error: String(err) });
    await zip.abort(err);
  }
}
