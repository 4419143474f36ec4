/**
 * An uploaded statement file: its kind (by content first, the name only to tell QFX from OFX and
 * to accept a CSV), its parse, and its R2 key (per institution, by the file's hash: a filename
 * never reaches a key). Errors are 4xx envelopes and nothing is stored.
 */
import { ApiError, validationError } from "../../lib/errors";
import type { StatementLayoutRecord } from "../../db/schema";
import { readWithStored, TEACH_WARNING, teachable } from "./layouts/apply";
import { accountTypeOf, parseStatementText, type ParseOutcome, type ParsedStatement } from "./parsers";
import type { AiProvider } from "../../ai/provider";
import { parseWithAi } from "./parsers/ai";
import { type CsvMapping, parseCsv } from "./parsers/csv";
import { decodeOfx, parseOfx } from "./parsers/ofx";
import { isPdf, MAX_PDF_PAGES, PdfTooBig, readPdfText } from "./parsers/pdf-text";
import { institutionSlug } from "./rules";

export const MAX_STATEMENT_BYTES = 10 * 1024 * 1024;
export type FileKind = "pdf" | "csv" | "ofx" | "qfx";

const fileIssue = (msg: string, type = "value_error") =>
  validationError([{ loc: ["body", "file"], msg, type }], msg);
const tooLarge = () =>
  new ApiError(413, "Statement file is larger than 10 MB", "PAYLOAD_TOO_LARGE", {
    max_bytes: MAX_STATEMENT_BYTES,
  });

/** Reads the multipart `file` field: bytes and the client's file name (display only). */
export async function readStatementUpload(
  request: Request,
): Promise<{ bytes: Uint8Array; filename: string }> {
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > MAX_STATEMENT_BYTES + 64 * 1024) throw tooLarge();
  let form: FormData;
  try {
    form = await request.formData();
  } catch {
    throw fileIssue("Expected multipart/form-data with a `file` field", "missing");
  }
  const file = form.get("file");
  if (file === null) throw fileIssue("Field required", "missing");
  if (typeof file === "string") throw fileIssue("`file` must be a file upload, not a text field");
  if (file.size > MAX_STATEMENT_BYTES) throw tooLarge();
  if (file.size === 0) throw fileIssue("The file is empty");
  const filename =
    (file.name || "statement").replace(/[\u0000-\u001f\u007f]/g, "").slice(0, 200) || "statement";
  return { bytes: new Uint8Array(await file.arrayBuffer()), filename };
}

export function detectKind(bytes: Uint8Array, filename: string): FileKind | null {
  if (isPdf(bytes)) return "pdf";
  const head = new TextDecoder("latin1").decode(bytes.subarray(0, 4096));
  if (head.includes("\u0000")) return null;
  if (/^\s*(OFXHEADER:|<\?xml[^>]*>\s*<\?OFX)/i.test(head) || /<OFX>/i.test(head)) {
    return /\.qfx$/i.test(filename) || /INTU\.BID/i.test(head) ? "qfx" : "ofx";
  }
  if (/\.csv$/i.test(filename) || /^[^\n]*[,;\t][^\n]*\r?\n/.test(head)) return "csv";
  return null;
}

/** Parses any supported file into statement rows; a file that is no statement is a 422. */
export async function parseFile(
  kind: FileKind,
  bytes: Uint8Array,
  fallbackYear: number,
  opts: { ai?: AiProvider | null; csvMapping?: CsvMapping | null; layouts?: StatementLayoutRecord[] } = {},
): Promise<ParsedStatement> {
  const ai = opts.ai ?? null;
  if (kind === "csv") return settled(parseCsv(decodeText(bytes), fallbackYear, opts.csvMapping ?? null));
  if (kind !== "pdf") return settled(parseOfx(decodeOfx(bytes)));
  let text: Awaited<ReturnType<typeof readPdfText>>;
  try {
    text = await readPdfText(bytes);
  } catch (err) {
    if (err instanceof PdfTooBig) {
      throw new ApiError(413, err.message, "PAYLOAD_TOO_LARGE", {
        pages: err.pages,
        max_pages: MAX_PDF_PAGES,
      });
    }
    throw fileIssue("The PDF could not be read (damaged or password-protected)");
  }
  // A layout the person taught reads its bank's statements first.
  const taught = readWithStored(text, opts.layouts ?? [], fallbackYear);
  if (taught) return { ...taught.statement, layout_id: taught.layoutId };
  const out = parseStatementText(text, fallbackYear);
  // The AI reader only where no deterministic parser found a table (never for a scan).
  if (!out.ok && out.reason === "not_a_statement" && ai) {
    return settled(await parseWithAi(ai, text.items.map((i) => i.str).join(" ")));
  }
  // A table no rule reads: kept, and the review opens its page for the person to mark the columns.
  if (!out.ok && out.reason === "not_a_statement" && teachable(text)) {
    return {
      institution: "Other",
      account_type: accountTypeOf(text.items.map((i) => i.str).join(" ")),
      period_start: null,
      period_end: null,
      parsed_with_ai: false,
      rows: [],
      balance: { ok: false, opening: null, closing: null, mismatches: [], warnings: [TEACH_WARNING] },
      needs_layout: true,
    };
  }
  return settled(out);
}

function settled(out: ParseOutcome): ParsedStatement {
  if (!out.ok) throw fileIssue(out.message, out.reason);
  return out.statement;
}

/** UTF-8 when the bytes are UTF-8, else Windows-1252 (what spreadsheet exports use). */
export function decodeText(bytes: Uint8Array): string {
  try {
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    return new TextDecoder("windows-1252").decode(bytes);
  }
}

export const r2KeyFor = (institution: string, sha256: string, kind: FileKind) =>
  `statements/${institutionSlug(institution)}/${sha256}.${kind}`;

export const CONTENT_TYPES: Record<FileKind, string> = {
  pdf: "application/pdf",
  csv: "text/csv; charset=utf-8",
  ofx: "application/x-ofx",
  qfx: "application/vnd.intu.qfx",
};
