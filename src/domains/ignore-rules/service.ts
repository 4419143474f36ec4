/**
 * Ignore-rule verbs: rules (merchants pinned to Ignored), the backfill that applies them to
 * existing rows, suggestions from what the user already ignores, and their dismissals. Lists are
 * versioned and backed up to R2 on every write like the other category configuration.
 */
import { getDb } from "../../db";
import {
  batchOf,
  type ListDef,
  loadList,
  loadLists,
  type Snapshot,
  type Statement,
  writeListSnapshot,
} from "../../db/lists";
import type { Env } from "../../env";
import type { ServiceCtx } from "../../lib/context";
import { conflict, notFound } from "../../lib/errors";
import { ALIASES } from "../merchant-aliases/queries";
import { windowStartPrefix } from "../overrides/rules";
import {
  DISMISSED_IGNORE,
  deleteDismissedMerchant,
  deleteRule,
  IGNORE_RULES,
  ignoredCountsQuery,
  insertRule,
  openCounts,
  upsertDismissedMerchant,
} from "./queries";
import { ignoreCompanies } from "../transactions/queries";
import { type IgnoreMatcher, ignoreMatcher, planApply, selectIgnoreSuggestions } from "./rules";
import type { IgnoreRuleListResponse } from "./schemas";

const patterns = async (env: Env) => (await loadList(env, IGNORE_RULES)).items.map((r) => r.pattern);

/** The matcher ingestion uses to pin new transactions: the pattern that matches a company, or null. */
export async function loadIgnoreMatcher(ctx: Pick<ServiceCtx, "env">): Promise<IgnoreMatcher> {
  const [p, a] = await Promise.all([patterns(ctx.env), loadList(ctx.env, ALIASES)]);
  return ignoreMatcher(p, a.items);
}

export async function listIgnoreRules(ctx: Pick<ServiceCtx, "env">): Promise<IgnoreRuleListResponse> {
  return rulesResponse(await loadList(ctx.env, IGNORE_RULES));
}

const rulesResponse = ({ items, version }: Snapshot<{ pattern: string }>): IgnoreRuleListResponse => ({
  rules: items.map(({ pattern }) => ({ pattern })),
  count: items.length,
  version,
});

/**
 * One write with the version bump, the re-read of the list and the request's (envelope-only)
 * ledger entry in one batch; returns the list as written.
 */
async function write<T>(ctx: ServiceCtx, list: ListDef<T>, stmt: Statement): Promise<Snapshot<T>> {
  ctx.journal({});
  return (await writeListSnapshot(ctx, list, [stmt])).snapshot;
}

/** Adds a rule (409 when the pattern exists, any case); existing rows change only on apply. */
export async function addIgnoreRule(ctx: ServiceCtx, pattern: string) {
  const existing = (await patterns(ctx.env)).find((p) => p.toLowerCase() === pattern.toLowerCase());
  if (existing) throw conflict(`Ignore rule '${existing}' already exists`, "CONFLICT", { existing });
  return rulesResponse(
    await write(ctx, IGNORE_RULES, insertRule(getDb(ctx.env.DB), pattern, ctx.clock().toISOString())),
  );
}

export async function deleteIgnoreRule(ctx: ServiceCtx, pattern: string) {
  const existing = (await patterns(ctx.env)).find((p) => p.toLowerCase() === pattern.toLowerCase());
  if (!existing) throw notFound(`Ignore rule '${pattern}'`);
  await write(ctx, IGNORE_RULES, deleteRule(getDb(ctx.env.DB), existing));
  return { detail: `Removed ignore rule '${existing}'` };
}

/** Backfill: sets Ignored on non-deleted, un-ignored rows matching one rule (404 if unknown) or all. */
export async function applyIgnoreRules(ctx: ServiceCtx, pattern?: string | null) {
  const db = getDb(ctx.env.DB);
  const [rules, aliases] = await loadLists(ctx.env, [IGNORE_RULES, ALIASES]);
  const all = rules.items.map((r) => r.pattern);
  const chosen = pattern ? all.filter((p) => p.toLowerCase() === pattern.toLowerCase()) : all;
  if (pattern && chosen.length === 0) throw notFound(`Ignore rule '${pattern}'`);
  const plan = planApply(chosen, await openCounts(db), aliases.items);
  const totalUpdated = plan.results.reduce((s, r) => s + r.updated, 0);
  // The merchants flipped (images for transparency: not reversible), in the update's own batch; a
  // rerun that flips nothing has no write, and the door writes its entry.
  const rule = pattern ? `ignore rule '${chosen[0]}'` : `${chosen.length} ignore rules`;
  ctx.journal({
    kind: "ignore_rules_apply",
    resourceId: pattern ? chosen[0]! : null,
    before: { ignored: false, companies: plan.companies },
    after: { ignored: true, companies: plan.companies },
    rows: totalUpdated,
    summary: `Applied ${rule}: ${totalUpdated} transaction${totalUpdated === 1 ? "" : "s"} set Ignored`,
    reversible: false,
  });
  const stmts = ignoreCompanies(db, plan.companies);
  if (stmts.length > 0) await ctx.batch(batchOf(stmts));
  return {
    results: plan.results,
    total_matched: plan.results.reduce((s, r) => s + r.matched, 0),
    total_updated: totalUpdated,
  };
}

export async function listDismissedIgnoreSuggestions(ctx: Pick<ServiceCtx, "env">) {
  const { items } = await loadList(ctx.env, DISMISSED_IGNORE);
  const dismissed = items.map((d) => ({ merchant: d.merchant, dismissed_at: d.dismissed_at ?? "" }));
  return { dismissed, count: dismissed.length };
}

export async function getIgnoreRuleSuggestions(ctx: ServiceCtx, months: number) {
  const [rules, aliasList, dismissed] = await loadLists(ctx.env, [IGNORE_RULES, ALIASES, DISMISSED_IGNORE]);
  const counts = await ignoredCountsQuery(getDb(ctx.env.DB), windowStartPrefix(ctx.clock(), months));
  const matcher = ignoreMatcher(
    rules.items.map((r) => r.pattern),
    aliasList.items,
  );
  const hidden = new Set(dismissed.items.map((d) => d.merchant.toLowerCase()));
  const suggestions = selectIgnoreSuggestions(counts, matcher, hidden);
  return { suggestions, count: suggestions.length };
}

export async function dismissIgnoreSuggestion(ctx: ServiceCtx, merchant: string) {
  const stmt = upsertDismissedMerchant(getDb(ctx.env.DB), merchant, ctx.clock().toISOString());
  await write(ctx, DISMISSED_IGNORE, stmt);
  return { detail: `Dismissed ignore suggestion '${merchant}'` };
}

export async function undismissIgnoreSuggestion(ctx: ServiceCtx, merchant: string) {
  const { dismissed } = await listDismissedIgnoreSuggestions(ctx);
  const existing = dismissed.find((d) => d.merchant.toLowerCase() === merchant.toLowerCase());
  if (!existing) throw notFound(`Dismissed ignore suggestion '${merchant}'`);
  await write(ctx, DISMISSED_IGNORE, deleteDismissedMerchant(getDb(ctx.env.DB), existing.merchant));
  return { detail: `Restored ignore suggestion '${existing.merchant}'` };
}
