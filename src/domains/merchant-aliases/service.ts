/**
 * Merchant-alias verbs. Every write bumps the list version in its own batch, invalidates the
 * categorizer's resolver cache at once and refreshes the R2 backup; put and delete return the
 * journal their entry (kind "alias", before/after images) in that same batch.
 */
import { invalidateResolverCache } from "../../categorize";
import { getDb } from "../../db";
import { loadList, type Statement, writeList } from "../../db/lists";
import type { ServiceCtx } from "../../lib/context";
import { notFound, validationError } from "../../lib/errors";
import { ALIASES, type AliasRow, deleteAliasRow, getAlias, upsertAlias } from "./queries";
import { aliasProblems } from "./rules";
import type { MerchantAliasEntry } from "./schemas";

const entry = (a: AliasRow): MerchantAliasEntry => ({ raw_name: a.raw_name, canonical_name: a.canonical });

export async function listAliases(ctx: Pick<ServiceCtx, "env">) {
  const { items, version } = await loadList(ctx.env, ALIASES);
  return { aliases: items.map(entry), count: items.length, version };
}

async function writeAliases(ctx: ServiceCtx, stmts: Statement[]): Promise<void> {
  await writeList(ctx, ALIASES, stmts);
  invalidateResolverCache();
}

/** The stored alias of `rawName` (any case) as a ledger image, or null. */
export async function currentAlias(ctx: Pick<ServiceCtx, "env">, rawName: string) {
  const row = await getAlias(getDb(ctx.env.DB), rawName);
  return row ? entry(row) : null;
}

export async function putAlias(
  ctx: ServiceCtx,
  { rawName, canonical }: { rawName: string; canonical: string },
) {
  const issues = aliasProblems(rawName, canonical);
  if (issues.length > 0) throw validationError(issues);
  const before = (await currentAlias(ctx, rawName)) ?? {};
  const after = { raw_name: rawName, canonical_name: canonical };
  ctx.journal({ kind: "alias", resourceId: rawName, before, after });
  await writeAliases(ctx, [
    upsertAlias(getDb(ctx.env.DB), { raw_name: rawName, canonical }, ctx.clock().toISOString()),
  ]);
}

export async function deleteAlias(ctx: ServiceCtx, rawName: string) {
  const before = await currentAlias(ctx, rawName);
  if (!before) throw notFound(`Merchant alias '${rawName}'`);
  ctx.journal({ kind: "alias", resourceId: rawName, before, after: null });
  await writeAliases(ctx, [deleteAliasRow(getDb(ctx.env.DB), rawName)]);
}

/** Activity revert: writes `before` back (`{}` or null means the alias did not exist). */
export async function restoreAlias(
  ctx: ServiceCtx,
  {
    rawName,
    before,
    journal,
  }: { rawName: string; before: Record<string, unknown> | null; journal?: () => void },
) {
  const db = getDb(ctx.env.DB);
  const stmts: Statement[] = [deleteAliasRow(db, rawName)];
  if (before && typeof before.raw_name === "string" && typeof before.canonical_name === "string") {
    const restored = { raw_name: before.raw_name, canonical: before.canonical_name };
    stmts.push(upsertAlias(db, restored, ctx.clock().toISOString()));
  }
  journal?.(); // the revert's own entry rides in the restore's batch
  await writeAliases(ctx, stmts);
}
