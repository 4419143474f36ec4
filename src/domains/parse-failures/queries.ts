/** D1 reads and writes of the quarantine (no business rules). */
import type { FailureRow } from "./rules";

const COLUMNS = `id, status, failure_stage, institution, forwarded_to, from_name, from_email, to_email, subject,
  body, email_date, raw_key, detail, resolved_tx, created_at, updated_at`;

export async function listFailures(
  db: D1Database,
  status: string | null,
  limit = 500,
): Promise<FailureRow[]> {
  const where = status ? "WHERE status = ?1" : "WHERE status != 'dismissed'";
  const stmt = db.prepare(
    `SELECT ${COLUMNS.replace("body,", "NULL AS body,")} FROM parse_failures ${where}
     ORDER BY created_at DESC, id LIMIT ${Math.max(1, Math.min(limit, 1000))}`,
  );
  const { results } = await (status ? stmt.bind(status) : stmt).all<FailureRow>();
  return results;
}

export function getFailure(db: D1Database, id: string): Promise<FailureRow | null> {
  return db.prepare(`SELECT ${COLUMNS} FROM parse_failures WHERE id = ?`).bind(id).first<FailureRow>();
}

export async function setStatus(
  db: D1Database,
  id: string,
  status: string,
  nowIso: string,
  fields: { resolvedTx?: string | null; stage?: string } = {},
): Promise<void> {
  await db
    .prepare(
      `UPDATE parse_failures SET status = ?2, updated_at = ?3,
         resolved_tx = COALESCE(?4, resolved_tx), failure_stage = COALESCE(?5, failure_stage)
       WHERE id = ?1`,
    )
    .bind(id, status, nowIso, fields.resolvedTx ?? null, fields.stage ?? null)
    .run();
}
