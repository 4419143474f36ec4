/**
 * Override suggestions from the user's own corrections (CategoryAudit.source manual, manual_edit
 * or manual_bulk), and their dismissals (kept under `company_lower|category_lower`, backed up to
 * R2 on every write; a newer correction brings a dismissed suggestion back).
 */
import type { ServiceCtx } from "../../lib/context";
import { notFound } from "../../lib/errors";
import { buildIndex, resolveDeterministic } from "../../ingest/categorize/rules";
import { findCategory } from "../categories/rules";
import { loadCategoryState } from "../categories/service";
import { backupList, bumpVersion, loadList } from "../categories/store";
import { ALIAS_SQL, ALIASES_LIST, type AliasRow } from "../merchant-aliases/queries";
import {
  correctionCounts,
  DISMISSED_LIST,
  DISMISSED_SQL,
  type DismissedRow,
  deleteDismissed,
  OVERRIDE_SQL,
  OVERRIDES_LIST,
  type OverrideEntry,
  upsertDismissed,
} from "./queries";
import { dismissKey, selectSuggestions, windowStartPrefix } from "./rules";

type Ctx = Pick<ServiceCtx, "env" | "clock">;

export async function listDismissed(ctx: Pick<ServiceCtx, "env">): Promise<DismissedRow[]> {
  return (await loadList<DismissedRow>(ctx.env, DISMISSED_LIST, DISMISSED_SQL)).items;
}

export async function getOverrideSuggestions({ ctx, months }: { ctx: Ctx; months: number }) {
  const [corrections, overrides, aliases, categories, dismissed] = await Promise.all([
    correctionCounts(ctx.env.DB, windowStartPrefix(ctx.clock(), months)),
    loadList<OverrideEntry>(ctx.env, OVERRIDES_LIST, OVERRIDE_SQL),
    loadList<AliasRow>(ctx.env, ALIASES_LIST, ALIAS_SQL),
    loadCategoryState(ctx.env),
    listDismissed(ctx),
  ]);
  const index = buildIndex(overrides.items, aliases.items);
  const dismissedAt = new Map(dismissed.map((d) => [d.key, d.dismissed_at]));
  const suggestions = selectSuggestions(corrections, {
    resolvesTo: (company) => resolveDeterministic(index, company)?.category ?? null,
    dismissedAt: (key) => dismissedAt.get(key),
    display: (category) => findCategory(categories.rows, category)?.name ?? category,
  });
  return { suggestions, count: suggestions.length };
}

async function writeDismissed(ctx: Ctx, stmt: D1PreparedStatement): Promise<void> {
  await ctx.env.DB.batch([stmt, bumpVersion(ctx.env.DB, DISMISSED_LIST, ctx.clock().toISOString())]);
  await backupList(ctx.env, DISMISSED_LIST, DISMISSED_SQL);
}

export async function dismissSuggestion({
  ctx,
  company,
  category,
}: {
  ctx: Ctx;
  company: string;
  category: string;
}) {
  const key = dismissKey(company, category);
  await writeDismissed(
    ctx,
    upsertDismissed(ctx.env.DB, { key, company, category, dismissed_at: ctx.clock().toISOString() }),
  );
  return { detail: `Dismissed suggestion ${key}` };
}

export async function undismissSuggestion({ ctx, key }: { ctx: Ctx; key: string }) {
  const k = key.trim().toLowerCase();
  if (!(await listDismissed(ctx)).some((d) => d.key === k)) throw notFound(`Dismissed suggestion '${k}'`);
  await writeDismissed(ctx, deleteDismissed(ctx.env.DB, k));
  return { detail: `Restored suggestion ${k}` };
}
