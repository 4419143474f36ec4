/** D1 queries of the activity ledger (activity_log). No rules here. */

export interface ActivityRow {
  id: string;
  ts: string;
  principal_kind: string | null;
  principal_id: string | null;
  principal_label: string | null;
  operation_id: string | null;
  method: string | null;
  path: string | null;
  resource_kind: string | null;
  resource_id: string | null;
  summary: string | null;
  before_json: string | null;
  after_json: string | null;
  reversible: number;
  reverted_at: string | null;
  reverted_by: string | null;
}

const COLUMNS =
  "id, ts, principal_kind, principal_id, principal_label, operation_id, method, path, resource_kind, " +
  "resource_id, summary, before_json, after_json, reversible, reverted_at, reverted_by";

export async function insertEntry(db: D1Database, r: ActivityRow): Promise<void> {
  await db
    .prepare(`INSERT INTO activity_log (${COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`)
    .bind(
      r.id,
      r.ts,
      r.principal_kind,
      r.principal_id,
      r.principal_label,
      r.operation_id,
      r.method,
      r.path,
      r.resource_kind,
      r.resource_id,
      r.summary,
      r.before_json,
      r.after_json,
      r.reversible,
      r.reverted_at,
      r.reverted_by,
    )
    .run();
}

export interface ActivityFilter {
  limit: number;
  since?: string | null;
  operation?: string | null;
  principalId?: string | null;
  /** Non-token callers have no id: "me" narrows by kind among id-less entries. */
  principalKind?: string | null;
}

export async function listEntries(db: D1Database, f: ActivityFilter): Promise<ActivityRow[]> {
  const where: string[] = [];
  const args: unknown[] = [];
  const add = (sql: string, value: unknown) => {
    where.push(sql);
    args.push(value);
  };
  if (f.since) add("ts >= ?", f.since);
  if (f.operation) add("operation_id = ?", f.operation);
  if (f.principalId) add("principal_id = ?", f.principalId);
  if (f.principalKind) add("principal_kind = ? AND principal_id IS NULL", f.principalKind);
  const clause = where.length > 0 ? `WHERE ${where.join(" AND ")}` : "";
  const { results } = await db
    .prepare(`SELECT ${COLUMNS} FROM activity_log ${clause} ORDER BY ts DESC, seq DESC LIMIT ?`)
    .bind(...args, f.limit)
    .all<ActivityRow>();
  return results;
}

export function getEntry(db: D1Database, id: string): Promise<ActivityRow | null> {
  return db.prepare(`SELECT ${COLUMNS} FROM activity_log WHERE id = ?`).bind(id).first<ActivityRow>();
}

/** Stamps the revert only if nobody did first: two concurrent reverts cannot both win. */
export async function claimRevert(db: D1Database, id: string, at: string, by: string): Promise<boolean> {
  const res = await db
    .prepare("UPDATE activity_log SET reverted_at = ?, reverted_by = ? WHERE id = ? AND reverted_at IS NULL")
    .bind(at, by, id)
    .run();
  return res.meta.changes > 0;
}

/** Undoes a claim when restoring failed, so the entry can be reverted again. */
export async function releaseRevert(db: D1Database, id: string, by: string): Promise<void> {
  await db
    .prepare(
      "UPDATE activity_log SET reverted_at = NULL, reverted_by = NULL WHERE id = ? AND reverted_by = ?",
    )
    .bind(id, by)
    .run();
}

export async function pruneBefore(db: D1Database, cutoffIso: string): Promise<number> {
  const res = await db.prepare("DELETE FROM activity_log WHERE ts < ?").bind(cutoffIso).run();
  return res.meta.changes;
}
