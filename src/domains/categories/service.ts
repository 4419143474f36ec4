/**
 * Category list verbs: the stored list (or the 39 defaults before first use), add, group and
 * icons. Every write stores the defaults first when nothing is stored yet, bumps the list
 * version in the same batch, and refreshes the R2 backup; reads fall back to that backup.
 */
import { getDb } from "../../db";
import { loadList, type Statement, writeListSnapshot } from "../../db/lists";
import type { ServiceCtx } from "../../lib/context";
import { conflict, notFound } from "../../lib/errors";
import type { CategoryRow } from "./defaults";
import { CATEGORIES, insertCategory, materialize, setGroup, setIcon } from "./queries";
import { effectiveRows, findCategory, iconsOf, nextPosition, toManaged } from "./rules";

export interface CategoryState {
  rows: CategoryRow[];
  stored: boolean;
  version: number;
}

/** The effective list with its version (D1, else the R2 backup, else the defaults). */
export async function loadCategoryState(env: ServiceCtx["env"]): Promise<CategoryState> {
  const snap = await loadList(env, CATEGORIES);
  return { ...effectiveRows(snap.items), version: snap.version };
}

/** The category names, in list order (what the model and the pickers choose from). */
export async function listCategoryNames(ctx: Pick<ServiceCtx, "env">): Promise<string[]> {
  return (await loadCategoryState(ctx.env)).rows.map((r) => r.name);
}

export async function listManagedCategories(ctx: Pick<ServiceCtx, "env">) {
  const s = await loadCategoryState(ctx.env);
  return toManaged(s.rows, s.version);
}

/** The row named `name` (any case), else 404. */
export function requireCategory(state: CategoryState, name: string): CategoryRow {
  const row = findCategory(state.rows, name);
  if (!row) throw notFound(`Category '${name}'`);
  return row;
}

/** Optimistic lock: a write carrying a version must carry the current one (409 otherwise). */
export function checkVersion(state: CategoryState, expected: number | null | undefined): void {
  if (expected !== null && expected !== undefined && expected !== state.version) {
    throw conflict("The category list changed since you read it; reload and retry", "CONFLICT", {
      expected_version: expected,
      current_version: state.version,
    });
  }
}

/**
 * Runs `stmts` after storing the defaults (first write) and before the version bump, in one
 * batch; returns the results of `stmts` only, and the list as the batch re-read it. Then refreshes
 * the backup. `batch`: the verb's ServiceCtx.batch, so the entry it journaled rides in the same
 * batch (a revert's recreate of deleted categories passes none: the revert's own entry rides in its
 * restore).
 */
export async function writeCategories(
  ctx: Pick<ServiceCtx, "env" | "clock"> & { batch?: ServiceCtx["batch"] },
  { state, stmts }: { state: CategoryState; stmts: Statement[] },
): Promise<{ results: unknown[]; state: CategoryState }> {
  const seed = state.stored ? [] : materialize(getDb(ctx.env.DB), state.rows);
  const { results, snapshot } = await writeListSnapshot(ctx, CATEGORIES, [...seed, ...stmts]);
  const written = { ...effectiveRows(snapshot.items), version: snapshot.version };
  return { results: results.slice(seed.length), state: written };
}

/** A category row as the ledger shows it. */
export const categoryImage = (r: CategoryRow) => ({
  name: r.name,
  group: r.group_name ?? null,
  icon: r.icon ?? null,
});

/**
 * Queues a category verb's entry; its list write's batch (writeCategories) carries it. Only a
 * change of look (group, icon) is `reversible` (revert.ts); an add, rename or delete moves rows
 * its images do not hold: images for transparency.
 */
export function journalCategory(
  ctx: Pick<ServiceCtx, "journal">,
  change: {
    name: string;
    before: CategoryRow | null;
    after: CategoryRow | null;
    summary: string;
    reversible?: boolean;
  },
): void {
  ctx.journal({
    kind: "category",
    resourceId: change.name,
    before: change.before ? categoryImage(change.before) : {},
    after: change.after ? categoryImage(change.after) : null,
    summary: change.summary,
    reversible: change.reversible ?? false,
  });
}

/** Adds a category (names are unique case-insensitively: 409 otherwise); returns the managed list. */
export async function addCategory(
  ctx: ServiceCtx,
  {
    input,
    expectedVersion,
  }: { input: { name: string; group?: string | null }; expectedVersion?: number | null },
) {
  const state = await loadCategoryState(ctx.env);
  checkVersion(state, expectedVersion);
  const existing = findCategory(state.rows, input.name);
  if (existing)
    throw conflict(`Category '${existing.name}' already exists`, "CONFLICT", { existing: existing.name });
  const row: CategoryRow = {
    name: input.name,
    group_name: input.group ?? null,
    icon: null,
    position: nextPosition(state.rows),
  };
  journalCategory(ctx, { name: row.name, before: null, after: row, summary: `Added category '${row.name}'` });
  const written = await writeCategories(ctx, { state, stmts: [insertCategory(getDb(ctx.env.DB), row)] });
  return toManaged(written.state.rows, written.state.version);
}

export async function updateCategoryGroup(
  ctx: ServiceCtx,
  { name, group, expectedVersion }: { name: string; group: string | null; expectedVersion?: number | null },
) {
  const state = await loadCategoryState(ctx.env);
  checkVersion(state, expectedVersion);
  const row = requireCategory(state, name);
  const summary = `Category '${row.name}' group: ${row.group_name ?? "none"} → ${group ?? "none"}`;
  const after = { ...row, group_name: group };
  journalCategory(ctx, { name: row.name, before: row, after, summary, reversible: true });
  await writeCategories(ctx, { state, stmts: [setGroup(getDb(ctx.env.DB), row.name, group)] });
  return { category: row.name, old_group: row.group_name ?? null, new_group: group };
}

export async function listCategoryIcons(ctx: Pick<ServiceCtx, "env">) {
  const s = await loadCategoryState(ctx.env);
  return iconsOf(s.rows, s.version);
}

/** Sets (a string) or clears (null) a category's icon; returns the icon map. */
export async function setCategoryIcon(
  ctx: ServiceCtx,
  { name, icon, expectedVersion }: { name: string; icon: string | null; expectedVersion?: number | null },
) {
  const state = await loadCategoryState(ctx.env);
  checkVersion(state, expectedVersion);
  const row = requireCategory(state, name);
  const summary = icon === null ? `Cleared the icon of '${row.name}'` : `Set the icon of '${row.name}'`;
  journalCategory(ctx, { name: row.name, before: row, after: { ...row, icon }, summary, reversible: true });
  const written = await writeCategories(ctx, { state, stmts: [setIcon(getDb(ctx.env.DB), row.name, icon)] });
  return iconsOf(written.state.rows, written.state.version);
}

/** Display spelling for a category recreated from a lowercased stored name ("home goods" → "Home Goods"). */
const displayName = (name: string) =>
  name === name.toLowerCase()
    ? name.replace(/(^|[\s/&-])(\p{L})/gu, (_m, sep: string, ch: string) => sep + ch.toUpperCase())
    : name;

/**
 * Before a revert writes category names back: every name must still be listed. Otherwise 409
 * CATEGORY_DELETED naming them, unless `force`, which recreates them explicitly (appended to the
 * list, no group) and returns their names so the response can say so.
 */
export async function requireLiveCategories(
  ctx: ServiceCtx,
  { names, force }: { names: readonly string[]; force: boolean },
): Promise<string[]> {
  const state = await loadCategoryState(ctx.env);
  const missing = [
    ...new Map(
      names
        .map((n) => n.trim())
        .filter((n) => n && !findCategory(state.rows, n))
        .map((n) => [n.toLowerCase(), n] as const),
    ).values(),
  ];
  if (missing.length === 0) return [];
  if (!force) {
    throw conflict(
      `The category ${missing.map((n) => `'${n}'`).join(", ")} was deleted since this entry; revert with ` +
        "force=true to recreate it",
      "CATEGORY_DELETED",
      { categories: missing },
    );
  }
  const db = getDb(ctx.env.DB);
  let position = nextPosition(state.rows);
  const rows = missing.map((n) => ({
    name: displayName(n),
    group_name: null,
    icon: null,
    position: position++,
  }));
  // Not through the caller's batch: the revert's own entry rides in its restore, not here.
  const recreate = { env: ctx.env, clock: ctx.clock };
  await writeCategories(recreate, {
    state,
    stmts: rows.map((r) => insertCategory(db, r).onConflictDoNothing()),
  });
  return rows.map((r) => r.name);
}

/** 409 for an edit whose category vanished between validation and write (renamed or deleted meanwhile). */
export function categoryGone(name: string) {
  return conflict(
    `The category '${name}' was renamed or deleted meanwhile; reload the list and retry`,
    "CATEGORY_DELETED",
    { categories: [name] },
  );
}
