/**
 * A statement file through its parser (parsers/ and files.ts) with what the verb read for it: the
 * taught layouts (a PDF), the confirmed CSV mapping (being confirmed, or stored for its header), and
 * the AI reader when the person opted in.
 */
import { aiFor } from "../../ai/routing";
import { getDb } from "../../db";
import type { StatementLayoutRecord, StatementRecord } from "../../db/schema";
import type { ServiceCtx } from "../../lib/context";
import { getConfig } from "../config/service";
import type { CsvMappingRow } from "./csv-mapping-queries";
import { mappingAmong, storedMapping } from "./csv-mappings";
import { checkRows, decodeText, type FileKind, parseFile } from "./files";
import { listLayouts } from "./layouts/service";
import type { CsvMapping } from "./parsers/csv";
import type { Settings } from "./period";

/** A file to parse, and the year its dates without one fall in. */
type FileToParse = { kind: FileKind; bytes: Uint8Array; fallbackYear: number };

/** The AI statement reader: the person opted in and document parsing is routed to a provider. */
async function aiReader(ctx: ServiceCtx, settings: Settings | undefined) {
  const config = settings ?? (await getConfig(ctx));
  return config.ai_statement_parsing_enabled
    ? aiFor(ctx.env, config, "document_parsing", { maxRetries: 1 })
    : null;
}

/** A CSV header layout's confirmed mapping (stored, or being confirmed now). */
export type Confirmed = { institution: string; mapping: CsvMapping };

/** What a verb read before the parse: the taught layouts (a PDF), stored CSV mappings (a superset). */
export type ReadAhead = {
  /** The settings the verb took with its read ahead. */
  config?: Settings;
  layouts?: StatementLayoutRecord[] | null;
  mappings?: CsvMappingRow[] | null;
  /** A CSV's text, decoded (and its rows counted) by the read ahead. */
  text?: string;
};

/**
 * Any file through its parser (one statement per account); a CSV with its confirmed mapping: the
 * one being confirmed (`confirmed`), else the stored one for its header, if any (among `mappings`
 * when the caller read them ahead).
 */
export async function parseAll(
  ctx: ServiceCtx,
  {
    kind,
    bytes,
    fallbackYear,
    confirmed = null,
    layouts = null,
    mappings = null,
    text: decoded,
    config,
  }: FileToParse & ReadAhead & { confirmed?: Confirmed | null },
) {
  if (kind !== "csv") {
    const parts = await parseFile(kind, bytes, fallbackYear, {
      ai: kind === "pdf" ? await aiReader(ctx, config) : null,
      // The taught layouts: read with the statement when the caller had a read to fold them into.
      layouts: kind === "pdf" ? (layouts ?? (await listLayouts(getDb(ctx.env.DB)))) : [],
    });
    return parts.map((p) => ({ ...p, csvState: null }));
  }
  if (decoded === undefined) checkRows(kind, bytes);
  const text = decoded ?? decodeText(bytes);
  // The header is on the first lines: the stored mapping is looked up from them alone.
  const head = text.slice(0, 64 * 1024);
  const stored =
    confirmed ?? (mappings ? mappingAmong(mappings, head) : await storedMapping(getDb(ctx.env.DB), head));
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

/** The statement of one account of a file (`part`: its place in the file). */
export async function parseAny(
  ctx: ServiceCtx,
  { part = 0, ...input }: FileToParse & ReadAhead & { part?: number; confirmed?: Confirmed | null },
) {
  const parts = await parseAll(ctx, input);
  return parts[part] ?? parts[0]!;
}
