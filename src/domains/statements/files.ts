/**
 * An uploaded statement file: its kind (by content first; the name only to tell QFX from OFX and
 * to accept a CSV), its cost checked before any parse (10 MB, and at most MAX_STATEMENT_ROWS rows:
 * a count of row markers, refused with a 413 in words in milliseconds), its parse into one
 * statement per account, and its R2 key (per institution, by the file's hash and the account's
 * place in the file: a filename never reaches a key). Errors are 4xx envelopes.
 */
import type { AiProvider } from "../../ai/provider";
import type { StatementLayoutRecord } from "../../db/schema";
import { NotFound, TooLarge, validationError } from "../../lib/errors";
import { cleanFilename } from "../../lib/filename";
import { readWithStored, TEACH_WARNING, teachable } from "./layouts/apply";
import { accountTypeOf, type ParsedStatement, parseStatementText } from "./parsers";
import { parseWithAi } from "./parsers/ai";
import { parseCamt, looksLikeCamt } from "./parsers/camt";
import { type CsvMapping, csvTable, parseCsv, previewRows } from "./parsers/csv";
import { unchecked } from "./parsers/balance";
import { decodeBytes } from "./parsers/decode";
import { looksLikeMt940, parseMt940 } from "./parsers/mt940";
import { decodeOfx, parseOfx } from "./parsers/ofx";
import { PdfRefused } from "../../lib/pdf-guard";
import { isPdf, MAX_PDF_PAGES, readPdfText } from "./parsers/pdf-text";
import { looksLikeQif, parseQif } from "./parsers/qif";
import { institutionSlug } from "./rules";
import { checkXml, elementCount, lineCount, linesStartingWith } from "./limits";

export const MAX_STATEMENT_BYTES = 10 * 1024 * 1024;
/** Rows (CSV lines, OFX/QIF/CAMT transactions) one file may hold: years of a busy account fit. */
export const MAX_STATEMENT_ROWS = 10_000;
export type FileKind = "pdf" | "csv" | "ofx" | "qfx" | "qif" | "camt" | "mt940";

const fileIssue = (msg: string, type = "value_error") =>
  validationError([{ loc: ["body", "file"], msg, type }], msg);

/** What src/http's readUpload hands over for a statement file: 10 MB. */
export const STATEMENT_LIMITS = {
  maxBytes: MAX_STATEMENT_BYTES,
  tooLarge: "Statement file is larger than 10 MB",
};

/** The uploaded file's display name (never a key). */
export const statementFilename = (name: string) => cleanFilename(name) || "statement";

/** The file's text (any encoding the bytes show; see parsers/decode.ts). */
export const decodeText = (bytes: Uint8Array) => decodeBytes(bytes).text;

export function detectKind(bytes: Uint8Array, filename: string): FileKind | null {
  if (isPdf(bytes)) return "pdf";
  const head = decodeBytes(bytes.subarray(0, 4096)).text;
  // Binary files (images, archives, spreadsheets) hold control characters no text export has.
  if ((head.match(/[\u0001-\u0008\u000e-\u001a]/g)?.length ?? 0) > 2) return null;
  if (/^\s*(OFXHEADER:|<\?xml[^>]*>\s*<\?OFX)/i.test(head) || /<OFX>/i.test(head)) {
    return /\.qfx$/i.test(filename) || /INTU\.BID/i.test(head) ? "qfx" : "ofx";
  }
  if (looksLikeCamt(head)) return "camt";
  if (looksLikeMt940(head)) return "mt940";
  if (looksLikeQif(head)) return "qif";
  if (/\.(csv|tsv)$/i.test(filename) || /^[^\n\r]*[,;\t|][^\n\r]*\r?[\n\r]/.test(head)) return "csv";
  return null;
}

/** How many times `needle` occurs in `hay` (indexOf steps: no match objects on a 10 MB text). */
function occurrences(hay: string, needle: string): number {
  let n = 0;
  for (let at = hay.indexOf(needle); at >= 0; at = hay.indexOf(needle, at + needle.length)) n++;
  return n;
}

/** Rows a file holds, counted without parsing (an upper bound, on any line ending: see limits.ts). */
function rowCount(kind: FileKind, bytes: Uint8Array, text: () => string): number {
  if (kind === "csv") return lineCount(bytes);
  const t = text();
  if (kind === "qif") return linesStartingWith(t, "^");
  if (kind === "camt") return elementCount(t, "Ntry");
  if (kind === "mt940") return linesStartingWith(t, ":61:");
  return occurrences(t.toUpperCase(), "<STMTTRN>");
}

/** Refuses (413, in words) a file holding more rows than any real statement. */
export function checkRows(kind: FileKind, bytes: Uint8Array, text: () => string = () => decodeText(bytes)) {
  const n = Math.round(rowCount(kind, bytes, text));
  if (n > MAX_STATEMENT_ROWS + 50) {
    const what = kind === "csv" ? "lines" : "transactions";
    throw new TooLarge(
      `This ${kind.toUpperCase()} file holds ${n.toLocaleString("en-US")} ${what}; a statement file may hold at most ${MAX_STATEMENT_ROWS.toLocaleString("en-US")}. Export a shorter period (a year or less) and upload each part.`,
      { rows: n, max_rows: MAX_STATEMENT_ROWS },
      "TOO_MANY_ROWS",
    );
  }
}

function settled<T>(out: { ok: true; statements: T } | { ok: false; reason: string; message: string }): T {
  if (!out.ok) throw fileIssue(out.message, out.reason);
  return out.statements;
}

/** A CSV's statement; a header nothing names gives a statement with no rows, kept for the mapping form. */
function csvStatement(text: string, mapping: CsvMapping | null): ParsedStatement {
  const out = parseCsv(text, mapping);
  if (out.ok) {
    const { statement } = out;
    const table = csvTable(text)!;
    statement.csv = { ...statement.csv!, preview: previewRows(table, statement.csv!.mapping) };
    return statement;
  }
  if (out.reason !== "needs_mapping") throw fileIssue(out.message, out.reason);
  return {
    ...noRows("chequing", [out.message]),
    csv: {
      header: out.table.header,
      mapping: out.mapping,
      preview: previewRows(out.table, out.mapping),
      refused: out.message,
    },
  };
}

/** A statement kept with no rows (the review opens the mapping form or the page to mark). */
export const noRows = (account_type: string, warnings: string[]): ParsedStatement => ({
  institution: "Other",
  account_type,
  period_start: null,
  period_end: null,
  parsed_with_ai: false,
  rows: [],
  balance: unchecked(warnings),
});

/** Parses any supported file into one statement per account; a file that is no statement is a 422. */
export async function parseFile(
  kind: FileKind,
  bytes: Uint8Array,
  fallbackYear: number,
  opts: { ai?: AiProvider | null; csvMapping?: CsvMapping | null; layouts?: StatementLayoutRecord[] } = {},
): Promise<ParsedStatement[]> {
  if (kind !== "pdf") {
    checkRows(kind, bytes);
    const text = kind === "ofx" || kind === "qfx" ? decodeOfx(bytes) : decodeText(bytes);
    if (kind === "csv") return [csvStatement(text, opts.csvMapping ?? null)];
    if (kind === "qif") return settled(parseQif(text));
    if (kind === "camt") {
      checkXml(text);
      return settled(parseCamt(text));
    }
    if (kind === "mt940") return settled(parseMt940(text));
    return settled(parseOfx(text));
  }
  let text: Awaited<ReturnType<typeof readPdfText>>;
  try {
    text = await readPdfText(bytes);
  } catch (err) {
    if (err instanceof PdfRefused) {
      throw new TooLarge(
        err.message,
        err.pages !== null ? { pages: err.pages, max_pages: MAX_PDF_PAGES } : null,
      );
    }
    throw fileIssue("The PDF could not be read (damaged or password-protected)");
  }
  // A layout the person taught reads its bank's statements first.
  const taught = readWithStored(text, opts.layouts ?? [], fallbackYear);
  if (taught) return [{ ...taught.statement, layout_id: taught.layoutId }];
  let out = parseStatementText(text, fallbackYear);
  const unread = !out.ok && out.reason === "not_a_statement";
  // The AI reader only where no deterministic parser found a table (never for a scan).
  if (unread && opts.ai) out = await parseWithAi(opts.ai, text.items.map((i) => i.str).join(" "));
  // A table no rule (nor the AI reader) reads: kept, never an empty answer; the review says no rows
  // were found and opens its page for the person to mark the columns (why the AI reading failed too).
  if (!out.ok && unread && teachable(text)) {
    const warnings = out.reason === "ai_validation_failed" ? [TEACH_WARNING, out.message] : [TEACH_WARNING];
    return [
      { ...noRows(accountTypeOf(text.items.map((i) => i.str).join(" ")), warnings), needs_layout: true },
    ];
  }
  if (!out.ok) throw fileIssue(out.message, out.reason);
  return [out.statement];
}

/** The stored file of a statement (404 in words when the object is gone). */
export async function storedFile(files: R2Bucket, key: string): Promise<Uint8Array> {
  const obj = await files.get(key);
  if (!obj) throw new NotFound("The stored statement file is missing");
  return new Uint8Array(await obj.arrayBuffer());
}

/** R2 key: the first account of a file under its hash, the others with their place in the file. */
export const r2KeyFor = (institution: string, sha256: string, kind: FileKind, part = 0) =>
  `statements/${institutionSlug(institution)}/${sha256}${part > 0 ? `.${part}` : ""}.${kind}`;

/** The account's place in its file, read back from the key r2KeyFor made. */
export const partOfKey = (key: string) => Number(/\.(\d+)\.[a-z]+$/.exec(key)?.[1] ?? 0);

export const CONTENT_TYPES: Record<FileKind, string> = {
  pdf: "application/pdf",
  csv: "text/csv; charset=utf-8",
  ofx: "application/x-ofx",
  qfx: "application/vnd.intu.qfx",
  qif: "application/qif",
  camt: "application/xml",
  mt940: "text/plain; charset=utf-8",
};
