/**
 * Override verbs: list, put, delete, consolidate, and the current/restore pair the activity
 * ledger uses to revert. Every write bumps the list version in its own batch, invalidates the
 * categorizer's resolver cache at once, and refreshes the R2 backup.
 */
import { invalidateResolverCache } from "../../categorize";
import { getDb } from "../../db";
import { loadList, type Snapshot, type Statement, writeListSnapshot } from "../../db/lists";
import type { ServiceCtx } from "../../lib/context";
import { conflict, notFound, validationError } from "../../lib/errors";
import { findCategory } from "../categories/rules";
import { loadCategoryState, requireLiveCategories } from "../categories/service";
import { deleteOverrideRow, getOverride, OVERRIDES, type OverrideEntry, upsertOverride } from "./queries";
import { consolidationProblems } from "./rules";
import type { OverrideListResponse } from "./schemas";

export async function listOverrides(ctx: Pick<ServiceCtx, "env">): Promise<OverrideListResponse> {
  return listResponse(await loadList(ctx.env, OVERRIDES));
}

function listResponse({ items, version }: Snapshot<OverrideEntry>): OverrideListResponse {
  const overrides = items.map((o) => ({ company: o.company, category: o.category }));
  return { overrides, count: overrides.length, version };
}

/**
 * Runs override statements with the version bump, the verb's queued ledger entry and the re-read
 * of the list in one batch, then drops the resolver cache and backs up; returns the list.
 */
export async function writeOverrides(ctx: ServiceCtx, stmts: Statement[]): Promise<Snapshot<OverrideEntry>> {
  const { snapshot } = await writeListSnapshot(ctx, OVERRIDES, stmts);
  invalidateResolverCache();
  return snapshot;
}

/** The list's spelling of `category` (422 when it is not in the list). */
async function listedName(ctx: ServiceCtx, category: string): Promise<string> {
  const row = findCategory((await loadCategoryState(ctx.env)).rows, category);
  if (row) return row.name;
  const loc = ["body", "category"];
  throw validationError([{ loc, msg: `'${category}' is not in the category list`, type: "value_error" }]);
}

/** The stored override of `company` (any case) as a ledger image, or null. */
export const currentOverride = (ctx: Pick<ServiceCtx, "env">, company: string) =>
  getOverride(getDb(ctx.env.DB), company);

/** Creates or replaces an override; returns the list and the ledger images (`{}` before a create). */
export async function putOverride(
  ctx: ServiceCtx,
  { company, category }: { company: string; category: string },
) {
  const db = getDb(ctx.env.DB);
  const name = await listedName(ctx, category);
  const before = await getOverride(db, company);
  const after = { company, category: name };
  const activityId = ctx.journal({ kind: "override", resourceId: company, before: before ?? {}, after });
  const list = await writeOverrides(ctx, [upsertOverride(db, after, ctx.clock().toISOString())]);
  return { before: before ?? {}, after, activityId, response: listResponse(list) };
}

/** Removes an override (404 when absent). */
export async function deleteOverride(ctx: ServiceCtx, company: string) {
  const before = await currentOverride(ctx, company);
  if (!before) throw notFound(`Override for '${company}'`);
  ctx.journal({ kind: "override", resourceId: company, before, after: null });
  await writeOverrides(ctx, [deleteOverrideRow(getDb(ctx.env.DB), company)]);
}

/**
 * Activity revert: writes `before` back (`{}` or null means the override did not exist). A
 * category deleted since is refused (409 CATEGORY_DELETED) unless `force`, which recreates it.
 */
export async function restoreOverride(
  ctx: ServiceCtx,
  {
    company,
    before,
    opts = { force: false },
  }: {
    company: string;
    before: OverrideEntry | null;
    opts?: { force: boolean; journal?: (recreated?: string[]) => void };
  },
) {
  const recreated = before
    ? await requireLiveCategories(ctx, { names: [before.category], force: opts.force })
    : [];
  const db = getDb(ctx.env.DB);
  const stmts: Statement[] = [deleteOverrideRow(db, company)];
  if (before) stmts.push(upsertOverride(db, before, ctx.clock().toISOString()));
  opts.journal?.(recreated); // a revert's own entry rides in the restore's batch
  await writeOverrides(ctx, stmts);
  return { recreated_categories: recreated };
}

/**
 * Replaces the member overrides by one override, atomically: 422 when a member does not belong,
 * 409 when the canonical company already has an override outside the group.
 */
export async function consolidateOverrides(
  ctx: ServiceCtx,
  input: { normalized_key: string; canonical_company: string; category: string; members: string[] },
) {
  const category = await listedName(ctx, input.category);
  const items = await OVERRIDES.query(getDb(ctx.env.DB));
  const { missing, foreign } = consolidationProblems(items, input.members, input.normalized_key);
  if (missing.length > 0 || foreign.length > 0) {
    throw validationError([
      ...missing.map((m) => ({
        loc: ["body", "members", m],
        msg: "no override has this company",
        type: "value_error",
      })),
      ...foreign.map((m) => ({
        loc: ["body", "members", m],
        msg: `does not normalize to '${input.normalized_key}'`,
        type: "value_error",
      })),
    ]);
  }
  const lower = (x: string) => x.toLowerCase();
  const taken = items.find((o) => lower(o.company) === lower(input.canonical_company));
  if (taken && !input.members.some((m) => lower(m) === lower(taken.company))) {
    throw conflict(
      `An override for '${taken.company}' exists outside this group; add it to the members`,
      "CONFLICT",
      { existing: taken },
    );
  }
  const db = getDb(ctx.env.DB);
  const n = new Set(input.members.map((m) => m.toLowerCase())).size;
  const detail = `Consolidated ${n} override${n === 1 ? "" : "s"} into '${input.canonical_company}' → ${category}`;
  // The group's overrides before, the one after: its revert puts the members back (consolidation-revert.ts).
  const before = items.filter((o) => input.members.some((m) => lower(m) === lower(o.company)));
  ctx.journal({
    kind: "override_consolidation",
    resourceId: input.normalized_key,
    before: { overrides: before.map((o) => ({ company: o.company, category: o.category })) },
    after: { overrides: [{ company: input.canonical_company, category }] },
    summary: detail,
  });
  await writeOverrides(ctx, [
    ...input.members.map((m) => deleteOverrideRow(db, m)),
    upsertOverride(db, { company: input.canonical_company, category }, ctx.clock().toISOString()),
  ]);
  return { detail, canonical: input.canonical_company };
}
