/**
 * Full-data backup (format 2): a zip streamed as it is built (fflate): the manifest first, one JSON
 * file per table read in rowid pages, then every file the rows point to (export-files.ts).
 * Quarantined emails are included; secrets never are. Memory stays at a page of rows or one
 * chunk of one file, whatever the journal's size (bench/backup-export.mjs measures it).
 */
import { asc, sql } from "drizzle-orm";
import { type Db, getDb } from "../../db";
import { schemaVersion } from "../../db/schema";
import type { ServiceCtx } from "../../lib/context";
import { log } from "../../lib/log";
import { ZipWriter } from "../../lib/zip-writer";
import { writeFiles } from "./export-files";
import { EXCLUDED_TABLES, EXPORTED_TABLES, shapeRow } from "./rules";

const PAGE = 2000;

async function tableExists(db: Db, table: string): Promise<boolean> {
  const rows = await db.all(sql`SELECT 1 AS one FROM sqlite_master WHERE type = 'table' AND name = ${table}`);
  return rows.length > 0;
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
  const counts: Record<string, number> = {};
  try {
    const tables: string[] = [];
    for (const table of EXPORTED_TABLES) {
      if (!(await tableExists(db, table))) continue;
      tables.push(table);
      const [row] = await db.all<{ n: number }>(sql`SELECT COUNT(*) AS n FROM ${sql.identifier(table)}`);
      counts[table] = Number(row?.n ?? 0);
    }
    const versions = await db
      .select({ version: schemaVersion.version })
      .from(schemaVersion)
      .orderBy(asc(schemaVersion.version));
    // The manifest comes first, so a reader knows the format before any table.
    await zip.text(
      "manifest.json",
      `${JSON.stringify(
        {
          format: "finance-journal-backup",
          format_version: 2,
          exported_at: ctx.clock().toISOString(),
          app_version: ctx.env.APP_VERSION ?? null,
          schema_versions: versions.map((r) => r.version),
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
