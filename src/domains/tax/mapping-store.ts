/**
 * Where the effective mapping comes from: the personal mapping (D1 row, R2 JSON backup read when
 * D1 fails, like the other configuration), else the packaged lines.json.
 */
import { type Db, getDb } from "../../db";
import type { ServiceCtx } from "../../lib/context";
import { validationError } from "../../lib/errors";
import { readWithFallback, saveBackup } from "../../lib/backup";
import { log } from "../../lib/log";
import { mappingDoc, packagedMapping, parseMapping, renameCategory, type TaxMapping } from "./mapping";
import * as q from "./queries";

type Ctx = Pick<ServiceCtx, "env" | "clock">;
const BACKUP_NAME = "tax_mapping";

async function storedDoc(ctx: Pick<Ctx, "env">): Promise<unknown | null> {
  const { value } = await readWithFallback(ctx.env.FILES, BACKUP_NAME, () =>
    q.readMapping(getDb(ctx.env.DB)),
  );
  return value;
}

/** The effective mapping and whether it is the personal one. */
export async function loadMappingInfo(
  ctx: Pick<Ctx, "env">,
): Promise<{ mapping: TaxMapping; personal: boolean }> {
  const doc = await storedDoc(ctx);
  if (doc) {
    const { mapping, issues } = parseMapping(doc, ["tax_mapping"]);
    if (mapping) return { mapping, personal: true };
    // Only a mapping that passed PUT is stored; a damaged copy must not take the page down.
    log("warn", "tax.personal_mapping_invalid", { issues: issues.map((i) => i.msg) });
  }
  return { mapping: packagedMapping(), personal: false };
}

export const loadMapping = async (ctx: Pick<Ctx, "env">) => (await loadMappingInfo(ctx)).mapping;

/** Validates and stores a personal mapping (422 naming every problem); returns the images. */
export async function putMapping(ctx: Ctx, doc: unknown) {
  const { mapping, issues } = parseMapping(doc);
  if (!mapping) throw validationError(issues, "The tax line mapping does not load");
  const before = await storedDoc(ctx);
  const after = mappingDoc(mapping);
  await q.writeMapping(getDb(ctx.env.DB), after, ctx.clock().toISOString());
  await saveBackup(ctx.env.FILES, BACKUP_NAME, after);
  return { before: (before as object | null) ?? {}, after };
}

/** Drops the personal mapping (the packaged one applies again). */
export async function deleteMapping(ctx: Ctx) {
  const before = await storedDoc(ctx);
  await q.clearMapping(getDb(ctx.env.DB));
  await saveBackup(ctx.env.FILES, BACKUP_NAME, null);
  return { before: (before as object | null) ?? {} };
}

/** Reverter pair for `tax_mapping`. */
export const currentMapping = async (ctx: Ctx) => ((await storedDoc(ctx)) as object | null) ?? null;

export async function restoreMapping(ctx: Ctx, image: Record<string, unknown> | null) {
  if (image && Array.isArray(image.lines)) await putMapping(ctx, image);
  else await deleteMapping(ctx);
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
