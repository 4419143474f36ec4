/**
 * A category renamed or deleted in the category list is renamed or dropped in every year's budget
 * targets and groups too, so a budget never points at a category that no longer exists.
 * The statements join the category write's batch; each row's version is bumped (optimistic lock).
 */
import type { Db } from "../../db";
import { allItemsQuery, replaceItemDataQuery } from "./queries";
import { categoryKey as key, type GroupsDoc, parseGroups, type TargetsDoc } from "./rules";

/** Pure: the doc with `from` renamed to `to` (or removed when `to` is null); null when untouched. */
export function renameInDoc(kind: string, data: unknown, from: string, to: string | null): unknown | null {
  const f = key(from);
  if (kind === "targets") {
    const doc = (data ?? {}) as { categories?: Record<string, unknown> };
    const cats = doc.categories ?? {};
    const keys = Object.keys(cats).map(key);
    if (!keys.includes(f)) return null;
    const next: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(cats)) {
      if (key(k) !== f) next[key(k)] = v;
      else if (to !== null && !keys.includes(key(to))) next[key(to)] = v;
    }
    return { ...doc, categories: next };
  }
  const { groups } = parseGroups(data);
  if (!groups.some((g) => g.categories.some((c) => key(c) === f))) return null;
  return {
    ...(data as object),
    groups: groups.map((g) => ({
      ...g,
      categories: [
        ...new Set(g.categories.flatMap((c) => (key(c) === f ? (to === null ? [] : [key(to)]) : [c]))),
      ],
    })),
  };
}

/** Statements rewriting every budget item that names `from`; run them in the category's batch. */
export async function budgetRenameStatements(db: Db, from: string, to: string | null, nowIso: string) {
  const rows = await allItemsQuery(db);
  const out = [];
  for (const r of rows) {
    // The document keeps its stored form (a decimal-era targets document stays unmarked).
    const next = renameInDoc(r.kind, r.data, from, to) as TargetsDoc | GroupsDoc | null;
    if (next === null) continue;
    out.push(replaceItemDataQuery(db, r, next, nowIso));
  }
  return out;
}
