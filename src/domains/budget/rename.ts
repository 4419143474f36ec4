/**
 * A category renamed or deleted in the category list is renamed or dropped in every year's budget
 * targets and groups too, so a budget never points at a category that no longer exists.
 * The statements join the category write's batch; each row's version is bumped (optimistic lock).
 */
import { parseGroups } from "./rules";

const key = (s: string) => s.trim().toLowerCase();

/** Pure: the doc with `from` renamed to `to` (or removed when `to` is null); null when untouched. */
export function renameInDoc(kind: string, data: unknown, from: string, to: string | null): unknown | null {
  const f = key(from);
  if (kind === "targets") {
    const doc = (data ?? {}) as { categories?: Record<string, unknown> };
    const cats = doc.categories ?? {};
    if (!(f in cats)) return null;
    const next: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(cats)) {
      if (k !== f) next[k] = v;
      else if (to !== null && !(key(to) in cats)) next[key(to)] = v;
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
export async function budgetRenameStatements(
  db: D1Database,
  from: string,
  to: string | null,
  nowIso: string,
): Promise<D1PreparedStatement[]> {
  const { results } = await db
    .prepare("SELECT user_id, year, kind, data, version FROM budget_config")
    .all<{ user_id: string; year: number; kind: string; data: string; version: number }>();
  const out: D1PreparedStatement[] = [];
  for (const r of results) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(r.data);
    } catch {
      continue;
    }
    const next = renameInDoc(r.kind, parsed, from, to);
    if (next === null) continue;
    out.push(
      db
        .prepare(
          `UPDATE budget_config SET data = ?1, version = version + 1, updated_at = ?2
           WHERE user_id = ?3 AND year = ?4 AND kind = ?5 AND version = ?6`,
        )
        .bind(JSON.stringify(next), nowIso, r.user_id, r.year, r.kind, r.version),
    );
  }
  return out;
}
