/**
 * Full-data backup (format 2): a zip streamed as it is built (fflate): the manifest first, one JSON
 * file per table read in rowid pages, then every file the rows point to (export-files.ts).
 * Quarantined emails are included; secrets never are. Memory stays at a page of rows or one
 * chunk of one file, whatever the journal's size (bench/backup-export.mjs measures it).
 */
import { sql } from "drizzle-orm";
import { type Db, getDb } from "../../db";
import type { ServiceCtx } from "../../lib/context";
import { log } from "../../lib/log";
import { ZipWriter } from "../../lib/zip-writer";
import { writeFiles } from "./export-files";
import { EXCLUDED_TABLES, EXPORTED_TABLES, shapeRow } from "./rules";

const PAGE = 2000;

/**
 * The exported tables this database has (in export order), their row counts and the applied
 * schema versions: two round trips whatever the number of tables (the names are our constants).
 */
async function inventory(d1: D1Database) {
  const marks = EXPORTED_TABLES.map(() => "?").join(", ");
  const { results } = await d1
    .prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND name IN (${marks})`)
    .bind(...EXPORTED_TABLES)
    .all<{ name: string }>();
  const present = new Set(results.map((r) => r.name));
  const tables: string[] = EXPORTED_TABLES.filter((t) => present.has(t));
  const [versions, ...sizes] = await d1.batch<Record<string, unknown>>([
    d1.prepare("SELECT version FROM schema_version ORDER BY version"),
    ...tables.map((t) => d1.prepare(`SELECT COUNT(*) AS n FROM "${t}"`)),
  ]);
  const counts: Record<string, number> = {};
  tables.forEach((t, i) => {
    counts[t] = Number(sizes[i]?.results[0]?.n ?? 0);
  });
  return { tables, counts, versions: (versions?.results ?? []).map((r) => Number(r.version)) };
}

/** One page of a table in rowid order: every stored column, as SQLite has it. */
function page(db: Db, table: string, after: number) {
  return db.all<Record<string, unknown>>(
    sql`SELECT rowid AS _rid, * FROM ${sql.identifier(table)} WHERE rowid > ${after} ORDER BY rowid LIMIT ${PAGE}`,
  );
}

/** Writes the zip into `writable`; resolves when the archive is complete. */
export async function writeBackup(
  ctx: Pick<ServiceCtx, "env" | "clock">,
  writable: WritableStream<Uint8Array>,
) {
  const db = getDb(ctx.env.DB);
  const zip = new ZipWriter(writable);
  try {
    const { tables, counts, versions } = await inventory(ctx.env.DB);
    // The manifest comes first, so a reader knows the format before any table.
    await zip.text(
      "manifest.json",
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
      )}\n`,
    );
    for (const table of tables) {
      const file = zip.entry(`${table}.json`);
      file.add("[");
      let last = 0;
      let n = 0;
      for (;;) {
        const results = await page(db, table, last);
        for (const row of results) {
          file.add(`${n === 0 ? "\n" : ",\n"}${JSON.stringify(shapeRow(table, row))}`);
          n++;
        }
        await zip.flush();
        if (results.length < PAGE) break;
        last = Number(results.at(-1)?._rid ?? last);
      }
      await file.end("\n]\n");
    }
    const files = await writeFiles(db, ctx.env.FILES, zip);
    log("info", "data_export.files", { ...files });
    await zip.close();
  } catch (err) {
    log("error", "data_export.failed", { error: String(err) });
    await zip.abort(err);
  }
}
