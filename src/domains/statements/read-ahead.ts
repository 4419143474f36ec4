/**
 * What a statement verb reads before it parses, each with the period's reads over a guessed window
 * (period.ts) in the same round trip: a stored statement and its rows (reparse, CSV-mapping
 * confirm, teaching a layout), the taught layouts (a PDF upload), the header's stored mapping (a
 * CSV upload).
 */
import { getDb } from "../../db";
import type { Statement } from "../../db/lists";
import type { StatementLayoutRecord } from "../../db/schema";
import type { ServiceCtx } from "../../lib/context";
import { notFound } from "../../lib/errors";
import type { CsvMappingRow } from "./csv-mapping-queries";
import { mappingQueryFor } from "./csv-mappings";
import { checkRows, decodeText } from "./files";
import { layoutsQuery } from "./layouts/queries";
import { withGuess } from "./period";
import { statementOf, statementQueries } from "./queries";

/**
 * A stored statement, its rows and the caller's `extra` reads, with the period's guessed reads in
 * the same round trip (404 when the statement is gone).
 */
export async function loadWithGuess(
  ctx: ServiceCtx,
  { id, extra = [] }: { id: string; extra?: Statement[] },
) {
  const db = getDb(ctx.env.DB);
  const own = [...statementQueries(db, id), ...extra];
  const { results, guessed, config } = await withGuess(ctx, { own, at: { statementId: id } });
  const { stmt, rows, extra: more } = statementOf(results);
  if (!stmt) throw notFound("Statement");
  return { stmt, rows, extra: more, guessed, config };
}

/** What a file kind that reads nothing before its parse (OFX, QFX, QIF, CAMT) starts with. */
export const NO_GUESS = { guessed: null, config: undefined } as const;

/**
 * The taught layouts a PDF upload reads before its parse, with the period's reads over a window
 * guessed around the upload `day` (kept when it covers the parsed dates): one round trip.
 */
export async function layoutsWithGuess(ctx: ServiceCtx, at: { statementId: string; day: string }) {
  const own = [layoutsQuery(getDb(ctx.env.DB))];
  const { results, guessed, config } = await withGuess(ctx, { own, at });
  return { layouts: results[0] as StatementLayoutRecord[], guessed, config };
}

/**
 * A CSV upload's stored mapping for its header (its rows counted first, as the parse does), with
 * the period's reads over a window guessed around the upload `day`: one round trip.
 */
export async function mappingWithGuess(
  ctx: ServiceCtx,
  at: { statementId: string; day: string; bytes: Uint8Array },
) {
  checkRows("csv", at.bytes);
  const text = decodeText(at.bytes);
  const query = mappingQueryFor(getDb(ctx.env.DB), text.slice(0, 64 * 1024));
  const own = query ? [query] : [];
  const { results, guessed, config } = await withGuess(ctx, { own, at });
  return { text, mappings: (results[0] ?? []) as CsvMappingRow[], guessed, config };
}
