/** D1 queries of budget_config (per user and year: `targets` and `groups`, each versioned). */

export type ItemKind = "targets" | "groups";

export interface ItemRow {
  kind: ItemKind;
  data: string;
  version: number;
  updated_at: string;
}

export async function readItems(db: D1Database, userId: string, year: number): Promise<ItemRow[]> {
  const { results } = await db
    .prepare("SELECT kind, data, version, updated_at FROM budget_config WHERE user_id = ?1 AND year = ?2")
    .bind(userId, year)
    .all<ItemRow>();
  return results;
}

export interface ItemWrite {
  kind: ItemKind;
  data: unknown;
  /** The version the caller read (0: none exists); null writes unconditionally (revert). */
  expected: number | null;
}

/**
 * Writes every item in ONE statement: all rows or none. The guard (each item's current version,
 * 0 when absent, equals its expected version) is evaluated before any row is written, so two
 * writers holding the same version cannot both win. Returns the new versions, or null when stale.
 */
export async function writeItems(
  db: D1Database,
  userId: string,
  year: number,
  items: ItemWrite[],
  nowIso: string,
): Promise<Partial<Record<ItemKind, number>> | null> {
  const binds: unknown[] = [userId, year, nowIso];
  const at = (v: unknown) => {
    binds.push(v);
    return `?${binds.length}`;
  };
  const guards: string[] = [];
  const values: string[] = [];
  for (const it of items) {
    const kind = at(it.kind);
    values.push(`SELECT ${kind} AS kind, ${at(JSON.stringify(it.data))} AS data`);
    if (it.expected !== null) {
      guards.push(
        `COALESCE((SELECT version FROM budget_config WHERE user_id = ?1 AND year = ?2 AND kind = ${kind}), 0) = ${at(it.expected)}`,
      );
    }
  }
  const sql = `INSERT INTO budget_config (user_id, year, kind, data, version, updated_at)
    SELECT ?1, ?2, v.kind, v.data, 1, ?3 FROM (${values.join(" UNION ALL ")}) AS v
    WHERE ${guards.length ? guards.join(" AND ") : "1"}
    ON CONFLICT (user_id, year, kind) DO UPDATE
      SET data = excluded.data, version = budget_config.version + 1, updated_at = excluded.updated_at
    RETURNING kind, version`;
  const res = await db
    .prepare(sql)
    .bind(...binds)
    .all<{ kind: ItemKind; version: number }>();
  if (res.results.length !== items.length || res.meta.changes !== items.length) return null;
  return Object.fromEntries(res.results.map((r) => [r.kind, r.version]));
}
