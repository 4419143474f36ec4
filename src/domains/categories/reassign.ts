/**
 * Rename and delete, which move the category's transactions and overrides along with it, and
 * the usage report shown before a delete. Miscellaneous (the categorizer's fallback) is fixed.
 */
import { invalidateResolverCache } from "../../categorize";
import { getDb } from "../../db";
import { changes, writeList } from "../../db/lists";
import type { ServiceCtx } from "../../lib/context";
import { conflict, validationError } from "../../lib/errors";
import { log } from "../../lib/log";
import type { Statement } from "../../db/lists";
import { budgetRenameStatements } from "../budget/rename";
import { taxRenameStatements } from "../tax/mapping-store";
import { OVERRIDES, reassignOverrides } from "../overrides/queries";
import { reassignTransactions } from "../transactions/queries";
import { MISCELLANEOUS } from "./defaults";
import { targetsOfYear } from "../budget/queries";
import { deleteCategoryRow, renameCategoryRow, usageCounts } from "./queries";
import { budgetNames, findCategory, isProtected, sameName } from "./rules";
import {
  type CategoryState,
  checkVersion,
  journalCategory,
  loadCategoryState,
  requireCategory,
  writeCategories,
} from "./service";

/** The budget and tax statements that carry a rename (`to`) or a delete (`to` null) through. */
type Cascade = (
  from: string,
  to: string | null,
  nowIso: string,
) => Promise<{ budget: Statement[]; tax: Statement[] }>;

/** The list with what a rename or delete rewrites (every budget item, the personal tax mapping). */
async function loadForMove(ctx: ServiceCtx): Promise<{ state: CategoryState; cascade: Cascade }> {
  const db = getDb(ctx.env.DB);
  return {
    state: await loadCategoryState(ctx.env),
    cascade: async (from, to, nowIso) => ({
      budget: await budgetRenameStatements(db, from, to, nowIso),
      tax: await taxRenameStatements(db, from, to, nowIso),
    }),
  };
}

/** After overrides moved with a category: a new override list version, cache dropped, backup refreshed. */
async function afterOverridesMoved(ctx: ServiceCtx, moved: number): Promise<void> {
  if (moved === 0) return;
  await writeList(ctx, OVERRIDES, []);
  invalidateResolverCache();
}

function refuseProtected(name: string, verb: "renamed" | "deleted"): void {
  if (isProtected(name)) {
    throw conflict(`${MISCELLANEOUS} is the fallback category and cannot be ${verb}`, "CONFLICT", {
      category: MISCELLANEOUS,
    });
  }
}

export async function renameCategory(
  ctx: ServiceCtx,
  {
    oldName,
    newName,
    expectedVersion,
  }: { oldName: string; newName: string; expectedVersion?: number | null },
) {
  const { state, cascade } = await loadForMove(ctx);
  checkVersion(state, expectedVersion);
  const row = requireCategory(state, oldName);
  refuseProtected(row.name, "renamed");
  const clash = findCategory(state.rows, newName);
  if (clash && !sameName(clash.name, row.name)) {
    throw conflict(`Category '${clash.name}' already exists`, "CONFLICT", { existing: clash.name });
  }
  const db = getDb(ctx.env.DB);
  const nowIso = ctx.clock().toISOString();
  const { budget, tax } = await cascade(row.name, newName, nowIso);
  const summary = `Renamed category '${row.name}' to '${newName}'`;
  journalCategory(ctx, { name: row.name, before: row, after: { ...row, name: newName }, summary });
  const {
    results: [, tx, ov],
  } = await writeCategories(ctx, {
    state,
    stmts: [
      renameCategoryRow(db, row.name, newName),
      reassignTransactions(db, row.name, newName),
      reassignOverrides(db, row.name, newName, nowIso),
      ...budget,
      ...tax,
    ],
  });
  await afterOverridesMoved(ctx, changes(ov));
  return {
    old_name: row.name,
    new_name: newName,
    transactions_updated: changes(tx),
    overrides_updated: changes(ov),
    budget_groups_updated: budget.length > 0,
  };
}

export async function deleteCategory(
  ctx: ServiceCtx,
  {
    name,
    reassignTo,
    expectedVersion,
  }: { name: string; reassignTo?: string | null; expectedVersion?: number | null },
) {
  const { state, cascade } = await loadForMove(ctx);
  checkVersion(state, expectedVersion);
  const row = requireCategory(state, name);
  refuseProtected(row.name, "deleted");
  const target = findCategory(state.rows, reassignTo ?? MISCELLANEOUS);
  if (!target || sameName(target.name, row.name)) {
    const msg = target ? "must differ from the deleted category" : "is not in the category list";
    throw validationError([{ loc: ["query", "reassign_to"], msg, type: "value_error" }]);
  }
  const db = getDb(ctx.env.DB);
  // The deleted category's budget target is dropped (its spending moves to the target category);
  // the personal tax mapping drops it from its line.
  const nowIso = ctx.clock().toISOString();
  const { budget, tax } = await cascade(row.name, null, nowIso);
  const summary = `Deleted category '${row.name}' (its rows move to '${target.name}')`;
  journalCategory(ctx, { name: row.name, before: row, after: null, summary });
  const {
    results: [, tx, ov],
  } = await writeCategories(ctx, {
    state,
    stmts: [
      deleteCategoryRow(db, row.name),
      reassignTransactions(db, row.name, target.name),
      reassignOverrides(db, row.name, target.name, nowIso),
      ...budget,
      ...tax,
    ],
  });
  await afterOverridesMoved(ctx, changes(ov));
  const moved = changes(tx);
  return {
    deleted_name: row.name,
    transactions_reassigned: moved,
    reassigned_to: moved > 0 ? target.name : null,
  };
}

/**
 * What a delete would touch: transactions and overrides of the category, budget and group
 * membership. The list, the counts under its spelling, then this year's budget documents (a
 * failed budget read: not in the budget).
 */
export async function categoryUsage(ctx: ServiceCtx, name: string) {
  const db = getDb(ctx.env.DB);
  const row = requireCategory(await loadCategoryState(ctx.env), name);
  const counts = await usageCounts(db, row.name);
  let docs: unknown[] = [];
  try {
    docs = await targetsOfYear(db, ctx.clock().getUTCFullYear());
  } catch (err) {
    log("warn", "categories.budget_read_failed", { error: String(err) });
  }
  const inBudget = docs.some((d) => budgetNames(d, row.name));
  return {
    category: row.name,
    transaction_count: counts.transactions,
    override_count: counts.overrides,
    in_budget: inBudget,
    in_group: row.group_name ?? null,
  };
}
