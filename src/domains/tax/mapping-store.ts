/**
 * Where the effective mapping comes from: the personal mapping (D1 row, R2 JSON backup read when
 * D1 fails, like the other configuration), else the packaged lines.json.
 */
import { type Db, getDb } from "../../db";
import type { ServiceCtx } from "../../lib/context";
import { validationError } from "../../lib/errors";
import { readWithFallback, saveBackup } from "../../lib/backup";
import { log } from "../../lib/log";
import {
  mappingDoc,
  packagedMapping,
  parseMapping,
  renameCategory,
  type TaxMapping,
  type TaxMappingDoc,
} from "./mapping";
import * as q from "./queries";

const BACKUP_NAME = "tax_mapping";

async function storedDoc(ctx: Pick<ServiceCtx, "env">): Promise<unknown | null> {
  const { value } = await readWithFallback(ctx.env.FILES, BACKUP_NAME, () =>
    q.readMapping(getDb(ctx.env.DB)),
  );
  return value;
}

/** The effective mapping and whether it is the personal one. */
export async function loadMappingInfo(
  ctx: Pick<ServiceCtx, "env">,
): Promise<{ mapping: TaxMapping; personal: boolean }> {
  return effectiveMapping(await storedDoc(ctx));
}

/** The effective mapping given the stored document (null: none; a damaged one: the packaged). */
export function effectiveMapping(doc: unknown | null): { mapping: TaxMapping; personal: boolean } {
  if (doc) {
    const { mapping, issues } = parseMapping(doc, ["tax_mapping"]);
    if (mapping) return { mapping, personal: true };
    // Only a mapping that passed PUT is stored; a damaged copy must not take the page down.
    log("warn", "tax.personal_mapping_invalid", { issues: issues.map((i) => i.msg) });
  }
  return { mapping: packagedMapping(), personal: false };
}

export const loadMapping = async (ctx: Pick<ServiceCtx, "env">) => (await loadMappingInfo(ctx)).mapping;

/**
 * Replaces the stored mapping (`after` null: drops it) with the entry `entry` makes of the images
 * in the same batch; then the R2 copy. Returns the before image (`{}`: there was none).
 */
async function writeDoc(ctx: ServiceCtx, after: TaxMappingDoc | null, entry: (before: object) => void) {
  const before = ((await storedDoc(ctx)) as object | null) ?? {};
  const db = getDb(ctx.env.DB);
  entry(before);
  await ctx.batch([after ? q.writeMapping(db, after, ctx.clock().toISOString()) : q.clearMapping(db)]);
  await saveBackup(ctx.env.FILES, BACKUP_NAME, after);
  return before;
}

/** A reversible entry over the personal mapping (`tax_mapping`, resource "personal"). */
const mappingEntry = (before: object, after: object | null, summary: string) =>
  ({ kind: "tax_mapping", resourceId: "personal", before, after, summary, reversible: true }) as const;

/** Validates a document (422 naming every problem) into its stored form. */
function validDoc(doc: unknown): TaxMappingDoc {
  const { mapping, issues } = parseMapping(doc);
  if (!mapping) throw validationError(issues, "The tax line mapping does not load");
  return mappingDoc(mapping);
}

/** Validates and stores a personal mapping (journaled, reversible); returns the images. */
export async function putMapping(ctx: ServiceCtx, doc: unknown) {
  const after = validDoc(doc);
  const before = await writeDoc(ctx, after, (b) =>
    ctx.journal(mappingEntry(b, after, "Set a personal tax line mapping")),
  );
  return { before, after };
}

/** Drops the personal mapping (the packaged one applies again; journaled, reversible). */
export async function deleteMapping(ctx: ServiceCtx) {
  const before = await writeDoc(ctx, null, (b) =>
    ctx.journal(mappingEntry(b, null, "Dropped the personal tax line mapping")),
  );
  return { before };
}

/** Reverter pair for `tax_mapping`. */
export const currentMapping = async (ctx: Pick<ServiceCtx, "env">) =>
  ((await storedDoc(ctx)) as object | null) ?? null;

/** Writes an image back; the revert's own entry (`journal`) rides in the write's batch. */
export async function restoreMapping(
  ctx: ServiceCtx,
  { image, journal }: { image: Record<string, unknown> | null; journal?: () => void },
) {
  const after = image && Array.isArray(image.lines) ? validDoc(image) : null;
  await writeDoc(ctx, after, () => journal?.());
}

/**
 * Categories renamed `from` → `to` (or deleted: `to` null) carry through the personal mapping:
 * the statement to join the category write's batch (like budget/rename.ts), or none when the
 * personal mapping does not name `from`. The R2 copy follows at the next mapping write.
 */
export async function taxRenameStatements(db: Db, from: string, to: string | null, nowIso: string) {
  let doc: unknown = null;
  try {
    doc = await q.readMapping(db);
  } catch {
    return [];
  }
  const parsed = doc ? parseMapping(doc).mapping : null;
  const next = parsed ? renameCategory(parsed, from, to) : null;
  return next ? [q.writeMapping(db, mappingDoc(next), nowIso)] : [];
}
