/**
 * The ledger image of a statement's review (the person's choices before an import): its status and
 * each row's action and edits. Row edits (one row or a bulk edit) are journaled with these images,
 * so Undo puts the choices back; rows already settled by an import are the import entry's to undo.
 */
import { getDb } from "../../db";
import type { StatementRecord, StatementRowRecord } from "../../db/schema";
import type { ServiceCtx } from "../../lib/context";
import type { ReviewImage } from "./ledger-images";
import * as q from "./queries";

/** A statement's status and each row's `pick`, by tx_index: the shape of both of its ledger images. */
export const rowsImage = <T>(
  stmt: Pick<StatementRecord, "status" | "completed_at">,
  rows: StatementRowRecord[],
  pick: (r: StatementRowRecord) => T,
) => ({
  status: stmt.status,
  completed_at: stmt.completed_at,
  rows: Object.fromEntries(rows.map((r) => [String(r.tx_index), pick(r)])),
});

export const reviewImage = (stmt: StatementRecord, rows: StatementRowRecord[]): ReviewImage =>
  rowsImage(stmt, rows, ({ action, edited, edited_company, edited_category }) => ({
    action,
    edited,
    edited_company,
    edited_category,
  }));

export async function currentReview(ctx: ServiceCtx, id: string): Promise<ReviewImage | null> {
  const { stmt, rows } = await q.readStatementWithRows(getDb(ctx.env.DB), id);
  return stmt ? reviewImage(stmt, rows) : null;
}

/** Writes the choices back in one batch; rows the image does not name are left alone. */
export async function restoreReview(
  ctx: ServiceCtx,
  { id, before }: { id: string; before: ReviewImage },
): Promise<void> {
  const db = getDb(ctx.env.DB);
  if (!(await q.getStatement(db, id))) return; // deleted since: nothing to put back
  await ctx.batch([
    q.setStatementQuery(db, id, {
      status: before.status,
      completed_at: before.completed_at,
      updated_at: ctx.clock().toISOString(),
    }),
    ...Object.entries(before.rows).map(([idx, r]) => q.updateRowQuery(db, id, Number(idx), r)),
  ]);
}
