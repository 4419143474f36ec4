/**
 * The blocked-company list (SPEC step 7 and Events: no notification for a company on it). Names
 * match without regard to case or surrounding spaces. Every write stages before/after images.
 */
import { getDb } from "../../db";
import type { ServiceCtx } from "../../lib/context";
import { notFound } from "../../lib/errors";
import {
  type BlockedRow,
  blockedListQuery,
  deleteBlockedQuery,
  findBlocked,
  insertBlockedQuery,
  replaceBlockedRows,
  upsertBlockedQuery,
} from "./queries";

export type { BlockedRow };
/** The list; replacing it whole is for tests and scripts. */
export { blockedListQuery, blockedListQuery as listBlocked, replaceBlockedRows as replaceBlocked };

const blockKey = (company: string) => company.trim().toLowerCase();
const image = (r: BlockedRow) => ({ company: r.company, created_at: r.created_at });

/** Adds a company (idempotent: an existing entry stays as it was). */
export async function blockCompany(ctx: ServiceCtx, company: string) {
  const key = blockKey(company);
  const existing = await findBlocked(getDb(ctx.env.DB), key);
  if (existing) {
    ctx.journal({
      kind: "blocked_company",
      resourceId: key,
      before: image(existing),
      after: image(existing),
    });
    return { row: existing };
  }
  const row = { key, company: company.trim(), created_at: ctx.clock().toISOString() };
  ctx.journal({ kind: "blocked_company", resourceId: key, before: {}, after: image(row) });
  await ctx.batch([insertBlockedQuery(getDb(ctx.env.DB), row)]);
  return { row };
}

/** Removes a company; 404 when it is not on the list. */
export async function unblockCompany(ctx: ServiceCtx, company: string) {
  const existing = await findBlocked(getDb(ctx.env.DB), blockKey(company));
  if (!existing) throw notFound("Blocked company");
  ctx.journal({ kind: "blocked_company", resourceId: existing.key, before: image(existing), after: null });
  await ctx.batch([deleteBlockedQuery(getDb(ctx.env.DB), existing.key)]);
  return { row: existing };
}

/** Activity revert: the current image of an entry, and writing a before image back. */
export async function currentBlocked(ctx: ServiceCtx, key: string) {
  const row = await findBlocked(getDb(ctx.env.DB), key);
  return row ? image(row) : null;
}

export async function restoreBlocked(
  ctx: ServiceCtx,
  { key, before, journal }: { key: string; before: Record<string, unknown> | null; journal?: () => void },
) {
  const db = getDb(ctx.env.DB);
  journal?.(); // the revert's own entry rides in the restore's batch
  if (!before || typeof before.company !== "string") {
    await ctx.batch([deleteBlockedQuery(db, key)]);
    return;
  }
  const row = {
    key,
    company: before.company,
    created_at: String(before.created_at ?? ctx.clock().toISOString()),
  };
  await ctx.batch([upsertBlockedQuery(db, row)]);
}
