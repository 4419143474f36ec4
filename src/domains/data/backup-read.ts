/**
 * Reading a backup zip: the manifest, one JSON array per known table, and (format 2) the files
 * the rows point to. Only those entries are inflated, each under its cap (unzip.ts). Rows are
 * checked and their file pointers re-derived (restore-files.ts); each file is checked against its
 * row and, when a sink is given (the commit), written to R2 under the derived key before any row
 * is written, so the rows' one-batch swap finds every file in place.
 */
import { StoredConfig } from "../config/schemas";
import { validationError } from "../../lib/errors";
import {
  IMPORT_TABLES,
  type InvalidRow,
  isObject,
  type ParsedBackup,
  type Row,
  toStored,
} from "./import-rules";
import {
  checkAttachmentFile,
  checkEmailFile,
  checkStatementFile,
  deriveAttachment,
  derivePointer,
  deriveStatement,
  entryName,
  type FileVerdict,
  fileCap,
} from "./restore-files";
import { readZip } from "./unzip";

export type FileSink = (
  key: string,
  bytes: Uint8Array,
  contentType: string,
  onlyIfAbsent: boolean,
  /** The file's place among the backup's file entries (zip order: the same on every read of one zip). */
  seq: number,
) => Promise<void>;

const MANIFEST_CAP = 1024 * 1024;
const TABLE_CAP = 96 * 1024 * 1024;
const bad = (msg: string) => validationError([{ loc: ["body", "file"], msg, type: "value_error" }], msg);

function readJson(bytes: Uint8Array, name: string): unknown {
  try {
    return JSON.parse(
      new TextDecoder("utf-8", { fatal: true } as ConstructorParameters<typeof TextDecoder>[1]).decode(bytes),
    );
  } catch {
    throw bad(`${name} is not valid JSON`);
  }
}

/**
 * Each row as stored, with its pointers derived; a string says why the row cannot be restored.
 * An attachment whose stated type is not ours may still be restored by its file's own bytes:
 * it is kept in `untyped` (with the reason) until its file arrives, and dropped if none does.
 */
function restoreRow(name: string, raw: unknown, cents: boolean, untyped: Map<Row, string>): Row | string {
  const row = toStored(name, IMPORT_TABLES[name]!, raw, cents);
  if (typeof row === "string") return row;
  if (name === "attachments") {
    const derived = deriveAttachment(row);
    if (typeof derived !== "string") return derived;
    const provisional = deriveAttachment(row, "pdf");
    if (typeof provisional === "string") return provisional;
    untyped.set(provisional, derived);
    return provisional;
  }
  if (name === "statements") return deriveStatement(row);
  if (name === "app_config") return configProblem(row) ?? row;
  return derivePointer(name, row);
}

/** A restored settings document that the settings reader would silently reset: refused in words. */
function configProblem(row: Row): string | null {
  let doc: unknown;
  try {
    doc = JSON.parse(String(row.data));
  } catch {
    return "the settings document is not JSON";
  }
  const parsed = StoredConfig.safeParse(doc);
  if (parsed.success) return null;
  return `settings ${parsed.error.issues.map((i) => `${i.path.join(".") || "(document)"}: ${i.message}`).join("; ")}`;
}

/**
 * `files`: only the file entries whose place (seq) is in [from, to) are inflated and checked (a
 * restore's later file step; the rows and the other files' verdicts are then incomplete).
 */
export async function parseBackup(
  source: Uint8Array | ReadableStream<Uint8Array>,
  sink: FileSink | null,
  files?: { from: number; to: number },
): Promise<ParsedBackup> {
  const tables: Record<string, Row[]> = {};
  const invalid: InvalidRow[] = [];
  let manifest: unknown;
  // File entry name → the row (or raw-email key) it belongs to; removed once read.
  const wanted = new Map<string, { table: string; row: Row; seq?: number }>();
  let seq = 0;
  const untyped = new Map<Row, string>();
  const report: ParsedBackup["files"] = {
    restored: { attachments: 0, statements: 0, emails: 0 },
    refused: [],
  };
  // `"money": "cents"` applies to the tables after the manifest (format 2 writes it first).
  const cents = () => isObject(manifest) && manifest.money === "cents";

  const capOf = (name: string) => {
    if (name === "manifest.json") return manifest === undefined ? MANIFEST_CAP : null;
    if (name.endsWith(".json") && name.slice(0, -5) in IMPORT_TABLES && !(name.slice(0, -5) in tables))
      return TABLE_CAP;
    const pending = wanted.get(name);
    if (!pending) return null;
    pending.seq = seq++;
    if (files && (pending.seq < files.from || pending.seq >= files.to)) return null;
    return fileCap(name);
  };

  const onEntry = async (name: string, bytes: Uint8Array) => {
    if (name === "manifest.json") {
      manifest = readJson(bytes, name);
      return;
    }
    const pending = wanted.get(name);
    if (pending) return onFile(name, pending, bytes);
    const table = name.slice(0, -5);
    const rows = readJson(bytes, name);
    if (!Array.isArray(rows)) throw bad(`${name} is not a JSON array`);
    tables[table] = [];
    for (const raw of rows) {
      const out = restoreRow(table, raw, cents(), untyped);
      if (typeof out === "string") invalid.push({ table, row: isObject(raw) ? raw : {}, reason: out });
      else {
        tables[table].push(out);
        const entry = entryName(table, out);
        if (entry && !wanted.has(entry)) wanted.set(entry, { table, row: out });
      }
    }
  };

  const onFile = async (
    name: string,
    { table, row, seq: at = 0 }: { table: string; row: Row; seq?: number },
    bytes: Uint8Array,
  ) => {
    wanted.delete(name);
    let verdict: FileVerdict;
    if (table === "attachments") verdict = await checkAttachmentFile(row, bytes);
    else if (table === "statements") verdict = await checkStatementFile(row, bytes);
    else verdict = await checkEmailFile(name.slice("files/".length), bytes);
    if (!verdict.ok) {
      report.refused.push({ name, reason: verdict.reason });
      untyped.delete(row);
      // An attachment or statement without its (refused) file is not restored at all.
      if (table === "attachments" || table === "statements") {
        tables[table] = tables[table]!.filter((r) => r !== row);
        invalid.push({ table, row, reason: verdict.reason });
      }
      // A statement's review rows go with it.
      if (table === "statements" && tables.statement_rows)
        tables.statement_rows = tables.statement_rows.filter((r) => r.statement_id !== row.id);
      return;
    }
    if (verdict.row) Object.assign(row, verdict.row);
    untyped.delete(row);
    if (sink) await sink(verdict.key, bytes, verdict.contentType, verdict.onlyIfAbsent === true, at);
    report.restored[
      table === "attachments" ? "attachments" : table === "statements" ? "statements" : "emails"
    ]++;
  };

  await readZip(source, capOf, onEntry);
  for (const [row, reason] of untyped) {
    tables.attachments = (tables.attachments ?? []).filter((r) => r !== row);
    invalid.push({ table: "attachments", row, reason });
  }
  if (!isObject(manifest) || manifest.format !== "finance-journal-backup")
    throw bad("The zip has no Finance Journal backup manifest (manifest.json)");
  if (manifest.format_version !== 1 && manifest.format_version !== 2)
    throw bad(`Backup format version ${String(manifest.format_version)} is not supported (expected 1 or 2)`);
  return {
    exportedAt: typeof manifest.exported_at === "string" ? manifest.exported_at : null,
    formatVersion: manifest.format_version,
    tables,
    invalid,
    files: report,
  };
}
