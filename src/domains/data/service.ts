/**
 * Full-data backup (format 2): a zip streamed as it is built (fflate): the manifest first, one JSON
 * file per table read in rowid pages, then every file the rows point to (export-files.ts). The
 * pages of several tables (and the files' key lists) ride in one batch of at most BATCH_ROWS rows
 * (pages.ts). Quarantined emails are included; secrets never are. Memory stays at a batch of rows or one
 * chunk of one file, whatever the journal's size (bench/backup-export.mjs measures it).
 */
import { log } from "../../lib/log";
import type { ServiceCtx } from "../../lib/context";
import { ZipWriter } from "../../lib/zip-writer";
import { fileSources } from "./export-files";
import { type PageSource, readPages } from "./pages";
import { EXCLUDED_TABLES, EXPORTED_TABLES, shapeRow } from "./rules";

type Stmt = D1PreparedStatement;

/** The exported tables this database has (every one, once migrated), their row counts and the schema versions. */
export async function inventory(d1: D1Database) {
  const marks = EXPORTED_TABLES.map(() => "?").join(", ");
  const { results } = await d1
    .prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND name IN (${marks})`)
    .bind(...EXPORTED_TABLES)
    .all<{ name: string }>();
  const present = new Set(results.map((r) => r.name));
  const tables = EXPORTED_TABLES.filter((t) => present.has(t));
  const [versions, ...sizes] = await runner(d1)([
    d1.prepare("SELECT version FROM schema_version ORDER BY version"),
    ...tables.map((t) => d1.prepare(`SELECT COUNT(*) AS n FROM "${t}"`)),
  ]);
  const counts: Record<string, number> = {};
  tables.forEach((t, i) => {
    counts[t] = Number((sizes[i]?.[0] as { n?: number } | undefined)?.n ?? 0);
  });
  return { tables, counts, versions: (versions as { version: number }[]).map((r) => Number(r.version)) };
}

/** A table's page in rowid order after a rowid (the SQL ends in LIMIT: the caller adds it). */
export const tablePageSql = (table: string) =>
  `SELECT rowid AS _rid, * FROM "${table}" WHERE rowid > ? ORDER BY rowid LIMIT`;

/** A table read in rowid order into its zip entry: every stored column, as SQLite has it. */
function tableSource(d1: D1Database, zip: ZipWriter, table: string): PageSource<Stmt> {
  let after = 0;
  let n = 0;
  let file: ReturnType<ZipWriter["entry"]> | null = null;
  const sql = tablePageSql(table);
  return {
    page: (limit) => d1.prepare(`${sql} ?`).bind(after, limit),
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
  try {
    const files = fileSources(d1, ctx.env.FILES, zip);
    const { tables, counts, versions } = await inventory(d1);
    await zip.text("manifest.json", manifestText(ctx, versions, counts));
    const open = [...tables.map((t) => tableSource(d1, zip, t)), ...files.sources];
    const sizes = [...tables.map((t) => counts[t] ?? 0), ...files.sizes(counts)];
    open.forEach((s, i) => {
      s.left = sizes[i];
    });
    await readPages(runner(d1), open, { ordered: true });
    log("info", "data_export.files", { ...files.counts });
    await zip.close();
  } catch (err) {
    log("error", "data_export.failed", { error: String(err) });
    await zip.abort(err);
  }
}
