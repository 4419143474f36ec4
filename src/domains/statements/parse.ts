/**
 * A statement file through its parser (parsers/ and files.ts) with what the verb read for it: the
 * taught layouts (a PDF), the confirmed CSV mapping (being confirmed, or stored for its header), and
 * the AI reader when the person opted in.
 */
import { aiFor } from "../../ai/routing";
import { getDb } from "../../db";
import type { StatementLayoutRecord, StatementRecord } from "../../db/schema";
import type { ServiceCtx } from "../../lib/context";
import { storedMapping } from "./csv-mappings";
import { checkRows, decodeText, type FileKind, parseFile } from "./files";
import { listLayouts } from "./layouts/service";
import type { CsvMapping } from "./parsers/csv";
import type { Settings } from "./period";

/** A file to parse, the year its dates without one fall in, and the settings the verb took. */
type FileToParse = { kind: FileKind; bytes: Uint8Array; fallbackYear: number; config: Settings };

/** A CSV header layout's confirmed mapping (stored, or being confirmed now). */
export type Confirmed = { institution: string; mapping: CsvMapping };

/** What a verb read before the parse (left out: the parse reads it). */
export type ReadAhead = {
  /** The taught layouts (a PDF). */
  layouts?: StatementLayoutRecord[];
  /** A CSV's mapping: being confirmed, or stored for its header (null: none). */
  mapping?: Confirmed | null;
  /** A CSV's text, decoded (and its rows counted) by the read ahead. */
  text?: string;
};

/** Any file through its parser (one statement per account); a CSV with its confirmed mapping, if any. */
export async function parseAll(
  ctx: ServiceCtx,
  { kind, bytes, fallbackYear, layouts, mapping, text: decoded, config }: FileToParse & ReadAhead,
) {
  const db = getDb(ctx.env.DB);
  if (kind !== "csv") {
    const ai = kind === "pdf" && config.ai_statement_parsing_enabled;
    const parts = await parseFile(kind, bytes, fallbackYear, {
      ai: ai ? aiFor(ctx.env, config, "document_parsing", { maxRetries: 1 }) : null,
      layouts: kind === "pdf" ? (layouts ?? (await listLayouts(db))) : [],
    });
    return parts.map((p) => ({ ...p, csvState: null }));
  }
  if (decoded === undefined) checkRows(kind, bytes);
  const text = decoded ?? decodeText(bytes);
  // The header is on the first lines: the stored mapping is looked up from them alone.
  const stored = mapping !== undefined ? mapping : await storedMapping(db, text.slice(0, 64 * 1024));
  const [parsed] = await parseFile(kind, bytes, fallbackYear, { csvMapping: stored?.mapping ?? null });
  if (stored) parsed!.institution = stored.institution;
  const csvState = parsed!.csv ? { ...parsed!.csv, confirmed: stored !== null } : null;
  return [{ ...parsed!, csvState }];
}

type Parsed = Awaited<ReturnType<typeof parseAll>>[number];

/** The statement columns a parse decides (an upload stores them, a re-read replaces them). */
export function parsedColumns(parsed: Parsed) {
  return {
    institution: parsed.institution,
    account_type: parsed.account_type,
    period_start: parsed.period_start,
    period_end: parsed.period_end,
    parsed_with_ai: parsed.parsed_with_ai ? 1 : 0,
    balance_ok: parsed.balance.ok ? 1 : 0,
    warnings: parsed.balance.warnings,
    csv_mapping: parsed.csvState,
  } satisfies Partial<StatementRecord>;
}
