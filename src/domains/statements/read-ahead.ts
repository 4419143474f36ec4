/**
 * What a statement upload reads before its parse, with the period's reads over a guessed window
 * (period.ts) in the same round trip: a PDF's taught layouts, a CSV's stored mapping for its header
 * (its rows counted and its text decoded first, as the parse does). Other kinds read nothing ahead.
 */
import { getDb } from "../../db";
import type { ServiceCtx } from "../../lib/context";
import { confirmedOf, mappingQueryFor } from "./csv-mappings";
import { checkRows, decodeText, type FileKind } from "./files";
import { layoutsQuery } from "./layouts/queries";
import type { ReadAhead } from "./parse";
import { type Guessed, withGuess } from "./period";

export async function uploadReadAhead(
  ctx: ServiceCtx,
  { kind, bytes, ...at }: { kind: FileKind; bytes: Uint8Array; statementId: string; day: string },
): Promise<ReadAhead & { guessed: Guessed | null }> {
  const db = getDb(ctx.env.DB);
  if (kind === "pdf") {
    const { own, guessed } = await withGuess(ctx, { own: layoutsQuery(db), ...at });
    return { layouts: own, guessed };
  }
  if (kind !== "csv") return { guessed: null };
  checkRows("csv", bytes);
  const text = decodeText(bytes);
  const query = mappingQueryFor(db, text.slice(0, 64 * 1024));
  const { own, guessed } = await withGuess(ctx, { own: query ?? undefined, ...at });
  return { text, mapping: confirmedOf(own), guessed };
}
