/**
 * Merchant-alias verbs. Every write bumps the list version in its own batch, invalidates the
 * categorizer's resolver cache at once and refreshes the R2 backup; put and delete return the
 * before/after images the activity ledger stages (kind "alias").
 */
import type { ServiceCtx } from "../../lib/context";
import { notFound, validationError } from "../../lib/errors";
import { invalidateResolverCache } from "../../ingest/categorize";
import { backupList, bumpVersion, loadList } from "../categories/store";
import { ALIAS_SQL, ALIASES_LIST, type AliasRow, deleteAliasRow, getAlias, upsertAlias } from "./queries";
import { aliasProblems } from "./rules";
import type { MerchantAliasEntry } from "./schemas";

type Ctx = Pick<ServiceCtx, "env" | "clock">;

const entry = (a: AliasRow): MerchantAliasEntry => ({ raw_name: a.raw_name, canonical_name: a.canonical });

export async function listAliases({ ctx }: { ctx: Pick<ServiceCtx, "env"> }) {
  const { items, version } = await loadList<AliasRow>(ctx.env, ALIASES_LIST, ALIAS_SQL);
  return { aliases: items.map(entry), count: items.length, version };
}

async function writeAliases(ctx: Ctx, stmts: D1PreparedStatement[]): Promise<void> {
  const now = ctx.clock().toISOString();
  await ctx.env.DB.batch([...stmts, bumpVersion(ctx.env.DB, ALIASES_LIST, now)]);
  await invalidateResolverCache(ctx.env.DB, now);
  await backupList(ctx.env, ALIASES_LIST, ALIAS_SQL);
}

/** The stored alias of `rawName` (any case) as a ledger image, or null. */
export async function currentAlias(
  ctx: Pick<ServiceCtx, "env">,
  rawName: string,
): Promise<MerchantAliasEntry | null> {
  const row = await getAlias(ctx.env.DB, rawName);
  return row ? entry(row) : null;
}

export async function putAlias({
  ctx,
  rawName,
  canonical,
}: {
  ctx: Ctx;
  rawName: string;
  canonical: string;
}) {
  const issues = aliasProblems(rawName, canonical);
  if (issues.length > 0) throw validationError(issues);
  const before = await currentAlias(ctx, rawName);
  await writeAliases(ctx, [
    upsertAlias(ctx.env.DB, { raw_name: rawName, canonical }, ctx.clock().toISOString()),
  ]);
  return { before: before ?? {}, after: { raw_name: rawName, canonical_name: canonical } };
}

export async function deleteAlias({ ctx, rawName }: { ctx: Ctx; rawName: string }) {
  const before = await currentAlias(ctx, rawName);
  if (!before) throw notFound(`Merchant alias '${rawName}'`);
  await writeAliases(ctx, [deleteAliasRow(ctx.env.DB, rawName)]);
  return { before, after: null };
}

/** Activity revert: writes `before` back (`{}` or null means the alias did not exist). */
export async function restoreAlias(ctx: Ctx, rawName: string, before: Record<string, unknown> | null) {
  const stmts = [deleteAliasRow(ctx.env.DB, rawName)];
  if (before && typeof before.raw_name === "string" && typeof before.canonical_name === "string") {
    stmts.push(
      upsertAlias(
        ctx.env.DB,
        { raw_name: before.raw_name, canonical: before.canonical_name },
        ctx.clock().toISOString(),
      ),
    );
  }
  await writeAliases(ctx, stmts);
}
