/**
 * Override suggestions from the user's own corrections (CategoryAudit.source manual, manual_edit
 * or manual_bulk), and their dismissals (kept under `company_lower|category_lower`, backed up to
 * R2 on every write; a newer correction brings a dismissed suggestion back).
 */
import { buildIndex, resolveDeterministic } from "../../categorize/rules";
import { getDb } from "../../db";
import { loadList, loadLists, type Statement, writeList } from "../../db/lists";
import type { ServiceCtx } from "../../lib/context";
import { notFound } from "../../lib/errors";
import { CATEGORIES } from "../categories/queries";
import { effectiveRows, findCategory } from "../categories/rules";
import { ALIASES } from "../merchant-aliases/queries";
import {
  correctionCountsQuery,
  DISMISSED,
  deleteDismissed,
  dismissedQuery,
  OVERRIDES,
  upsertDismissed,
} from "./queries";
import { dismissKey, selectSuggestions, windowStartPrefix } from "./rules";

export async function getOverrideSuggestions(ctx: ServiceCtx, months: number) {
  const lists = [OVERRIDES, ALIASES, CATEGORIES, DISMISSED] as const;
  const [overrides, aliases, stored, { items: dismissed }] = await loadLists(ctx.env, lists);
  const db = getDb(ctx.env.DB);
  const corrections = await correctionCountsQuery(db, windowStartPrefix(ctx.clock(), months));
  const categories = effectiveRows(stored.items);
  const index = buildIndex(overrides.items, aliases.items);
  const dismissedAt = new Map(dismissed.map((d) => [d.key, d.dismissed_at]));
  const suggestions = selectSuggestions(corrections, {
    resolvesTo: (company) => resolveDeterministic(index, company)?.category ?? null,
    dismissedAt: (key) => dismissedAt.get(key),
    display: (category) => findCategory(categories.rows, category)?.name ?? category,
  });
  return { suggestions, count: suggestions.length };
}

/** The dismissed list's write, with the verb's entry in its batch (reversible: dismissal-revert.ts). */
async function writeDismissed(
  ctx: ServiceCtx,
  stmt: Statement,
  entry: { resourceId: string; before: object; after: object | null; summary: string },
): Promise<void> {
  ctx.journal({ kind: "override_suggestion_dismissal", ...entry });
  await writeList(ctx, DISMISSED, [stmt]);
}

export async function dismissSuggestion(
  ctx: ServiceCtx,
  { company, category }: { company: string; category: string },
) {
  const key = dismissKey(company, category);
  const row = { key, company, category, dismissed_at: ctx.clock().toISOString() };
  const detail = `Dismissed suggestion ${key}`;
  // A dismissal dismissed again: its undo gives the earlier dismissal back, not none.
  const [earlier] = await dismissedQuery(getDb(ctx.env.DB), key);
  await writeDismissed(ctx, upsertDismissed(getDb(ctx.env.DB), row), {
    resourceId: key,
    before: earlier ? { ...earlier } : {},
    after: row,
    summary: detail,
  });
  return { detail };
}

export async function undismissSuggestion(ctx: ServiceCtx, key: string) {
  const k = key.trim().toLowerCase();
  const found = (await loadList(ctx.env, DISMISSED)).items.find((d) => d.key === k);
  if (!found) throw notFound(`Dismissed suggestion '${k}'`);
  const detail = `Restored suggestion ${k}`;
  await writeDismissed(ctx, deleteDismissed(getDb(ctx.env.DB), k), {
    resourceId: k,
    before: { ...found },
    after: null,
    summary: detail,
  });
  return { detail };
}
