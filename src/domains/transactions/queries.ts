/** D1 queries for transactions; no business rules. Month reads are DateFileName range scans. */
import type { TxKey } from "../../lib/txid";
import type { Editable, TxRow } from "./rules";

const SELECT = `SELECT t.*, (a.DateFileName IS NOT NULL) AS needs_attention
  FROM transactions t LEFT JOIN attention_queue a
    ON a.ForwardedTo = t.ForwardedTo AND a.DateFileName = t.DateFileName`;

export async function listMonth(
  db: D1Database,
  lo: string,
  hi: string,
  kind: "active" | "trash" | "attention",
) {
  const where =
    kind === "trash"
      ? "t.DeletedAt IS NOT NULL"
      : kind === "attention"
        ? "t.DeletedAt IS NULL AND a.DateFileName IS NOT NULL"
        : "t.DeletedAt IS NULL";
  const { results } = await db
    .prepare(
      `${SELECT} WHERE t.DateFileName >= ?1 AND t.DateFileName < ?2 AND ${where} ORDER BY t.DateFileName DESC`,
    )
    .bind(lo, hi)
    .all<TxRow>();
  return results;
}

export function getRow(db: D1Database, key: TxKey) {
  return db
    .prepare(`${SELECT} WHERE t.ForwardedTo = ?1 AND t.DateFileName = ?2`)
    .bind(key.forwardedTo, key.dateFileName)
    .first<TxRow>();
}

/** Writes the editable columns and takes the row off the attention queue, in one batch. */
export async function writeEditable(db: D1Database, key: TxKey, cols: Editable) {
  await db.batch([
    db
      .prepare(
        `UPDATE transactions SET Category = ?3, CategoryAudit = ?4, Comment = ?5, Amount = ?6, Company = ?7,
           TransactionType = ?8, Ignored = ?9, DeletedAt = ?10
         WHERE ForwardedTo = ?1 AND DateFileName = ?2`,
      )
      .bind(
        key.forwardedTo,
        key.dateFileName,
        cols.Category,
        cols.CategoryAudit,
        cols.Comment,
        cols.Amount,
        cols.Company,
        cols.TransactionType,
        cols.Ignored,
        cols.DeletedAt,
      ),
    db
      .prepare("DELETE FROM attention_queue WHERE ForwardedTo = ?1 AND DateFileName = ?2")
      .bind(key.forwardedTo, key.dateFileName),
  ]);
}

export async function deleteRow(db: D1Database, key: TxKey) {
  await db.batch([
    db
      .prepare("DELETE FROM transactions WHERE ForwardedTo = ?1 AND DateFileName = ?2")
      .bind(key.forwardedTo, key.dateFileName),
    db
      .prepare("DELETE FROM attention_queue WHERE ForwardedTo = ?1 AND DateFileName = ?2")
      .bind(key.forwardedTo, key.dateFileName),
  ]);
}

export function latestCreated(db: D1Database, bounds: { lo: string; hi: string } | null) {
  const sql = bounds
    ? "SELECT DateFileName, CreatedAt FROM transactions WHERE DateFileName >= ?1 AND DateFileName < ?2 AND DeletedAt IS NULL ORDER BY DateFileName DESC LIMIT 1"
    : "SELECT DateFileName, CreatedAt FROM transactions WHERE DeletedAt IS NULL ORDER BY DateFileName DESC LIMIT 1";
  const stmt = db.prepare(sql);
  return (bounds ? stmt.bind(bounds.lo, bounds.hi) : stmt).first<{
    DateFileName: string;
    CreatedAt: string;
  }>();
}
