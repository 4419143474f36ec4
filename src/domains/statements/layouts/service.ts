/**
 * Taught PDF layouts: the page text the review lays out, teaching (the person's column marks →
 * rows read and balance-checked → the layout saved under its page's fingerprint → the statement
 * read again), and the list on the Rules page (rename, delete). Each write journals its ledger
 * entry (with images) in its own batch.
 */
import { getDb } from "../../../db";
import type { StatementLayoutRecord } from "../../../db/schema";
import type { ServiceCtx } from "../../../lib/context";
import { conflict, notFound, validationError } from "../../../lib/errors";
import { storedFile } from "../files";
import { toLines } from "../parsers/layout";
import { readPdfText } from "../parsers/pdf-text";
import { newId } from "../rules";
import { readTaught } from "./apply";
import { findHeader, fingerprintOf } from "./fingerprint";
import {
  countMatchQuery,
  deleteLayoutQuery,
  layoutById,
  listLayouts,
  renameLayoutQuery,
  restoreLayoutQuery,
  saveByFingerprintQuery,
} from "./queries";
import type { LayoutMarks } from "./read";
import { readLayoutHeader, readLayoutMarks } from "./stored";

export { countMatchQuery, listLayouts };

export async function listLayoutItems(ctx: ServiceCtx) {
  return { layouts: (await listLayouts(getDb(ctx.env.DB))).map(layoutItem) };
}

export async function getLayout(ctx: ServiceCtx, id: string): Promise<StatementLayoutRecord | null> {
  return (await layoutById(getDb(ctx.env.DB), id)) ?? null;
}

export function layoutItem(r: StatementLayoutRecord) {
  return {
    id: r.id,
    name: r.name,
    institution: r.institution,
    header: readLayoutHeader(r.header).map((w) => w.t),
    marks: readLayoutMarks(r.marks),
    match_count: r.match_count,
    last_matched_at: r.last_matched_at,
    created_at: r.created_at,
  };
}

/** A PDF statement's stored file (409 for another kind, 404 in words when the object is gone). */
async function pdfBytesOf(ctx: ServiceCtx, stmt: { file_kind: string; r2_key: string }) {
  if (stmt.file_kind !== "pdf") throw conflict("Only a PDF statement has a page layout", "NOT_PDF");
  return storedFile(ctx.env.FILES, stmt.r2_key);
}

export async function pdfTextOf(ctx: ServiceCtx, stmt: { file_kind: string; r2_key: string }) {
  return readPdfText(await pdfBytesOf(ctx, stmt));
}

/** The first pages' text as laid out (lines top to bottom, items with x and width), for marking. */
export async function pageText(ctx: ServiceCtx, stmt: { file_kind: string; r2_key: string }) {
  const text = await pdfTextOf(ctx, stmt);
  const lines = toLines(text.items.filter((i) => i.page <= 2)).slice(0, 400);
  return {
    pages: text.pages,
    lines: lines.map((ln) => ({
      page: ln.page,
      y: Math.round(ln.y * 10) / 10,
      items: ln.items.map((i) => ({
        x: Math.round(i.x * 10) / 10,
        w: Math.round(i.w * 10) / 10,
        str: i.str,
      })),
    })),
  };
}

const bad = (msg: string) => validationError([{ loc: ["body", "marks"], msg, type: "value_error" }], msg);

/**
 * Reads the statement with the marks and plans the layout's save under its header's fingerprint:
 * the entry is queued and `save` is for the caller's write batch (with the statement read again
 * with `layouts`, the taught layouts as they will be after the save). `layouts`: the stored ones.
 */
export async function teachLayout(
  ctx: ServiceCtx,
  {
    stmt,
    body,
    layouts,
  }: {
    stmt: { id: string; file_kind: string; r2_key: string; uploaded_at: string };
    body: { marks: LayoutMarks; name?: string; institution?: string; proposed?: boolean };
    layouts: StatementLayoutRecord[];
  },
) {
  const m = body.marks;
  if (!m.amount && !(m.withdrawal || m.deposit))
    throw bad("Mark the amount column, or the withdrawal and deposit columns");
  const bytes = await pdfBytesOf(ctx, stmt);
  const text = await readPdfText(bytes);
  const lines = toLines(text.items);
  const header = findHeader(lines, m);
  const institution = (body.institution ?? "").trim() || "Other";
  const parsed = readTaught(
    text,
    { marks: m, header: header?.words ?? null, institution },
    Number(stmt.uploaded_at.slice(0, 4)),
  )?.statement;
  if (!parsed?.rows.length) {
    throw bad("These columns read no rows: mark a date and an amount on the same line of a transaction");
  }
  if (!header)
    throw bad(
      "No header line (column titles) stands above the marked rows, so the layout could not be recognised again",
    );
  const db = getDb(ctx.env.DB);
  const now = ctx.clock().toISOString();
  const fingerprint = fingerprintOf(header.words);
  const before = layouts.find((l) => l.fingerprint === fingerprint) ?? null;
  const record: StatementLayoutRecord = {
    id: before?.id ?? newId("lay"),
    name:
      (body.name ?? "").trim().slice(0, 100) ||
      `${institution} statement (${header.words
        .map((w) => w.t)
        .slice(0, 4)
        .join(" ")})`,
    institution,
    fingerprint,
    header: header.words,
    marks: m,
    source_statement_id: stmt.id,
    match_count: before?.match_count ?? 0,
    last_matched_at: before?.last_matched_at ?? null,
    created_at: before?.created_at ?? now,
    updated_at: now,
  };
  const proposed = body.proposed ? "; columns proposed by the model" : "";
  ctx.journal({
    kind: "statement-layout",
    resourceId: record.id,
    before,
    after: record,
    rows: 1,
    summary: `taught statement layout "${record.name}" (${parsed.rows.length} rows${proposed})`,
  });
  // As a read after the save lists them: oldest first, the new one last among equals.
  const after = before
    ? layouts.map((l) => (l.id === record.id ? record : l))
    : [...layouts, record].sort((a, b) =>
        a.created_at < b.created_at ? -1 : a.created_at > b.created_at ? 1 : 0,
      );
  return {
    before,
    after: record,
    layouts: after,
    bytes,
    save: saveByFingerprintQuery(db, record),
    balance: parsed.balance,
    rows: parsed.rows.length,
  };
}

export async function renameLayout(ctx: ServiceCtx, { id, name }: { id: string; name: string }) {
  const before = await getLayout(ctx, id);
  if (!before) throw notFound("Statement layout");
  const after = { ...before, name: name.trim().slice(0, 100), updated_at: ctx.clock().toISOString() };
  ctx.journal({
    kind: "statement-layout",
    resourceId: id,
    before,
    after,
    rows: 1,
    summary: `renamed statement layout to "${after.name}"`,
  });
  const db = getDb(ctx.env.DB);
  await ctx.batch([renameLayoutQuery(db, id, after.name, after.updated_at)]);
  return { before, after };
}

export async function deleteLayout(ctx: ServiceCtx, id: string) {
  const before = await getLayout(ctx, id);
  if (!before) throw notFound("Statement layout");
  ctx.journal({
    kind: "statement-layout",
    resourceId: id,
    before,
    after: null,
    rows: 1,
    summary: `deleted statement layout "${before.name}"`,
  });
  const db = getDb(ctx.env.DB);
  await ctx.batch([deleteLayoutQuery(db, id)]);
  return { before };
}

/** The ledger's restore: null removes the layout, a record puts it back as it was. */
export async function restoreLayout(
  ctx: ServiceCtx,
  { id, before }: { id: string; before: StatementLayoutRecord | null },
) {
  await ctx.batch([restoreLayoutQuery(getDb(ctx.env.DB), id, before)]);
}
