/** Statement verbs: upload (parse, reconcile, persist), list, detail, review edits, reparse, delete, download. */
import { getDb } from "../../db";
import type { StatementRecord, StatementRowRecord } from "../../db/schema";
import { sha256Hex } from "../../ingest/hash";
import type { ServiceCtx } from "../../lib/context";
import { conflict, NotFound, notFound, Refused, Unsupported, validationError } from "../../lib/errors";
import { checkMapping, saveMappingQuery } from "./csv-mappings";
import {
  CONTENT_TYPES,
  decodeText,
  detectKind,
  type FileKind,
  partOfKey,
  r2KeyFor,
  storedFile,
} from "./files";
import { batchOf, type Statement } from "../../db/lists";
import { countMatchQuery } from "./layouts/service";
import { getConfig } from "../config/service";
import { type CsvMapping, csvTable } from "./parsers/csv";
import * as q from "./queries";
import { uploadReadAhead } from "./read-ahead";
import { parseAll, parsedColumns, type ReadAhead } from "./parse";
import { reviewImage } from "./review-image";
import { buildRows } from "./reconcile";
import { newId, statementStatus } from "./rules";
import type { RowEdit } from "./schemas";
import { detail, summaryItem, uploadResponse } from "./views";

/**
 * Confirms (or corrects) the column mapping of a CSV statement's header layout and reads it again
 * with it: the mapping, the new rows and the entry land in one batch.
 */
export async function confirmCsvMapping(
  ctx: ServiceCtx,
  { id, body }: { id: string; body: { institution: string; mapping: CsvMapping } },
) {
  const loaded = await loadStatement(ctx, id);
  if (loaded.stmt.file_kind !== "csv") throw conflict("Only a CSV statement has a column mapping", "NOT_CSV");
  const bytes = await storedFile(ctx.env.FILES, loaded.stmt.r2_key);
  const table = csvTable(decodeText(bytes));
  if (!table) throw conflict("The stored CSV has no header row", "NOT_CSV");
  checkMapping(table.header, body.mapping);
  const db = getDb(ctx.env.DB);
  const now = ctx.clock().toISOString();
  return reread(ctx, {
    loaded,
    bytes,
    mapping: body,
    extra: [saveMappingQuery(db, table.header, body.institution, body.mapping, now)],
    summary: () => `CSV columns confirmed for ${body.institution}`,
  });
}

export async function uploadStatement(ctx: ServiceCtx, upload: { bytes: Uint8Array; filename: string }) {
  const kind = detectKind(upload.bytes, upload.filename);
  if (!kind)
    throw new Unsupported(
      "Not a statement file: upload a PDF, CSV, OFX, QFX, QIF or CAMT.053 (ISO 20022 XML) export",
    );
  const now = ctx.clock().toISOString();
  const firstId = newId();
  const config = await getConfig(ctx);
  const { guessed, ...ahead } = await uploadReadAhead(ctx, {
    kind,
    bytes: upload.bytes,
    statementId: firstId,
    day: now.slice(0, 10),
  });
  const parts = await parseAll(ctx, {
    kind,
    bytes: upload.bytes,
    fallbackYear: ctx.clock().getUTCFullYear(),
    config,
    ...ahead,
  });
  const sha = await sha256Hex(upload.bytes);
  const refused = parts[0]!.csv?.refused;
  const saved = [];
  for (const [part, parsed] of parts.entries()) {
    const key = r2KeyFor(parsed.institution, sha, kind, part);
    const id = part === 0 ? firstId : newId();
    // The guess was read before any part was inserted: only the first part may use it.
    const rows = await buildRows(ctx, {
      statementId: id,
      parsed,
      fileKind: kind,
      guessed: part === 0 ? guessed : null,
      config,
    });
    const stmt: StatementRecord = {
      id,
      filename: upload.filename,
      file_kind: kind,
      file_sha256: sha,
      r2_key: key,
      ...parsedColumns(parsed),
      status: "pending_review",
      uploaded_at: now,
      updated_at: now,
      completed_at: null,
    };
    await ctx.env.FILES.put(key, upload.bytes, { httpMetadata: { contentType: CONTENT_TYPES[kind] } });
    // The upload's entry (named by the first statement) rides in its insert; a CSV kept for its
    // mapping form (refused below) is no finished upload: no entry.
    if (saved.length === 0 && !refused) {
      ctx.journal({ resourceId: id, summary: `uploaded statement (${rows.length} rows)` });
    }
    const db = getDb(ctx.env.DB);
    const layout = parsed.layout_id ? [countMatchQuery(db, parsed.layout_id, now)] : [];
    await ctx.batch([...q.insertStatementQueries(db, stmt, rows), ...layout]);
    saved.push({ stmt, rows: rows as StatementRowRecord[], account: parsed.account ?? null });
  }
  const first = saved[0]!;
  if (refused) {
    // Kept with no rows: the review page opens the mapping form on it.
    throw new Refused(refused, "CSV_MAPPING_NEEDED", {
      statement_id: first.stmt.id,
      header: parts[0]!.csv!.header,
    });
  }
  return uploadResponse(
    first.stmt,
    first.rows,
    saved.slice(1).map((s) => ({
      statement_id: s.stmt.id,
      account: s.account,
      account_type: s.stmt.account_type,
      transaction_count: s.rows.length,
    })),
    first.account,
  );
}

export async function loadStatement(ctx: ServiceCtx, id: string) {
  const { stmt, rows } = await q.readStatementWithRows(getDb(ctx.env.DB), id);
  if (!stmt) throw notFound("Statement");
  return { stmt, rows };
}

export async function listStatements(ctx: ServiceCtx) {
  const db = getDb(ctx.env.DB);
  const [stmts, rows] = await q.statementsAndRows(db);
  const byStatement = new Map<string, StatementRowRecord[]>();
  for (const r of rows) {
    const list = byStatement.get(r.statement_id);
    if (list) list.push(r);
    else byStatement.set(r.statement_id, [r]);
  }
  const statements = stmts.map((s) => summaryItem(s, byStatement.get(s.id) ?? []));
  return { statements, count: statements.length };
}

export async function getStatementDetail(ctx: ServiceCtx, id: string) {
  const { stmt, rows } = await loadStatement(ctx, id);
  return detail(stmt, rows);
}

/** A row by tx_index (digits) or row_id. */
function findRow(rows: StatementRowRecord[], key: string | number): StatementRowRecord {
  const row =
    typeof key === "number" || /^\d+$/.test(key)
      ? rows.find((r) => r.tx_index === Number(key))
      : rows.find((r) => r.row_id === key);
  if (!row) throw notFound("Statement transaction");
  return row;
}

/** The patch one review edit makes (validated against the row). */
export function editPatch(row: StatementRowRecord, edit: RowEdit): Partial<StatementRowRecord> {
  if (row.action_result !== null) {
    throw conflict(`Row ${row.tx_index} was already settled (${row.action_result})`, "ROW_SETTLED", {
      tx_index: row.tx_index,
    });
  }
  if ((edit.action === "enrich" || edit.action === "update") && !row.db_date_file_name) {
    const msg = `Row ${row.tx_index} has no stored transaction to ${edit.action}`;
    throw validationError([{ loc: ["body", "action"], msg, type: "value_error" }], msg);
  }
  const patch: Partial<StatementRowRecord> = { action: edit.action, edited: 1 };
  if (edit.company !== undefined) patch.edited_company = edit.company;
  if (edit.category !== undefined) patch.edited_category = edit.category;
  return patch;
}

/**
 * Applies edits (one or many rows) atomically and recomputes the statement's status; the review
 * entry (`summary` names the edited rows) rides in the same batch. Returns the edited rows.
 */
export async function applyEdits(
  ctx: ServiceCtx,
  {
    id,
    edits,
    summary,
  }: {
    id: string;
    edits: { key: string | number; edit: RowEdit }[];
    summary: (rows: StatementRowRecord[]) => string;
  },
) {
  const db = getDb(ctx.env.DB);
  const { stmt, rows } = await loadStatement(ctx, id);
  const before = reviewImage(stmt, rows);
  const changed = edits.map(({ key, edit }) => {
    const row = findRow(rows, key);
    const patch = editPatch(row, edit);
    Object.assign(row, patch);
    return { row, patch };
  });
  const status = statementStatus(rows);
  const now = ctx.clock().toISOString();
  const completed_at = status === "complete" ? stmt.completed_at : null;
  const after = reviewImage({ ...stmt, status, completed_at }, rows);
  const edited = changed.map((c) => c.row);
  ctx.journal({
    kind: "statement-review",
    resourceId: id,
    before,
    after,
    rows: edited.length,
    summary: summary(edited),
  });
  await ctx.batch([
    q.setStatementQuery(db, id, { status, updated_at: now, completed_at }),
    ...changed.map(({ row, patch }) => q.updateRowQuery(db, id, row.tx_index, patch)),
  ]);
  return { rows: edited };
}

/**
 * Reads a stored statement again and replaces its rows, keeping the person's edits and results.
 * `extra` statements join the write's batch; `summary` names the entry that rides in it (null:
 * the caller's verb journaled already).
 */
export async function reread(
  ctx: ServiceCtx,
  opts: Pick<ReadAhead, "layouts" | "mapping"> & {
    loaded: Awaited<ReturnType<typeof loadStatement>>;
    bytes?: Uint8Array;
    extra?: Statement[];
    summary: ((rows: number) => string) | null;
  },
) {
  const { stmt, rows: previous } = opts.loaded;
  const bytes = opts.bytes ?? (await storedFile(ctx.env.FILES, stmt.r2_key));
  const config = await getConfig(ctx);
  const parts = await parseAll(ctx, {
    kind: stmt.file_kind as FileKind,
    bytes,
    fallbackYear: Number(stmt.uploaded_at.slice(0, 4)),
    mapping: opts.mapping,
    layouts: opts.layouts,
    config,
  });
  // The statement of this one account of the file (its place in the file, in its key).
  const parsed = parts[partOfKey(stmt.r2_key)] ?? parts[0]!;
  const rows = await buildRows(ctx, {
    statementId: stmt.id,
    parsed,
    fileKind: stmt.file_kind,
    previous,
    config,
  });
  const status = statementStatus(
    rows.map((r) => ({ edited: r.edited ?? 0, action_result: r.action_result ?? null })),
  );
  const patch: Partial<StatementRecord> = {
    ...parsedColumns(parsed),
    status,
    updated_at: ctx.clock().toISOString(),
  };
  if (opts.summary) ctx.journal({ resourceId: stmt.id, summary: opts.summary(rows.length) });
  const db = getDb(ctx.env.DB);
  await ctx.batch(batchOf([...(opts.extra ?? []), ...q.replaceRowsQueries(db, stmt.id, patch, rows)]));
  return detail({ ...stmt, ...patch }, rows as StatementRowRecord[]);
}

/** Parses the stored file again and reconciles anew (journaled: the entry rides in the rows' batch). */
export async function reparseStatement(ctx: ServiceCtx, id: string) {
  return reread(ctx, {
    loaded: await loadStatement(ctx, id),
    summary: (n) => `reparsed statement (${n} rows)`,
  });
}

/** Removes the statement and its review rows (never a transaction); the file goes when no statement keeps it. */
export async function deleteStatement(ctx: ServiceCtx, id: string) {
  const db = getDb(ctx.env.DB);
  const { stmt, rows } = await loadStatement(ctx, id);
  const summary = `deleted statement ${stmt.filename} (${rows.length} rows)`;
  ctx.journal({ resourceId: id, summary });
  const keeping = await q.deleteStatementRows(db, id, stmt.r2_key, ctx.batch);
  // Only a statements/ key is ever deleted (a row restored by an old build could name another object).
  if (stmt.r2_key.startsWith("statements/") && keeping === 0) await ctx.env.FILES.delete(stmt.r2_key);
  return { ok: true, summary };
}

export async function downloadStatement(ctx: ServiceCtx, id: string) {
  const { stmt } = await loadStatement(ctx, id);
  const obj = await ctx.env.FILES.get(stmt.r2_key);
  if (!obj) throw new NotFound("The stored statement file is missing");
  const kind = stmt.file_kind as FileKind;
  return { body: obj.body, contentType: CONTENT_TYPES[kind], filename: `statement-${stmt.id}.${kind}` };
}
