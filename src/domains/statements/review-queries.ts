/** The guards of a statement review's revert: the statement and its rows as a review image shows them. */
import { and, eq, exists, type SQL, sql } from "drizzle-orm";
import { type Db, sameText } from "../../db";
import { statementRows as r, statements as s } from "../../db/schema";
import type { ReviewImage } from "./review-image";

/**
 * Conditions that hold while statement `id` shows `shown` exactly: its status, and every row (no
 * more, no fewer) with the image's choices. Each is one guard (a few parameters each).
 */
export const reviewShows = (db: Db, id: string, shown: ReviewImage): SQL[] =>
  statementShows(db, id, shown, (c) => [
    sameText(r.action, c.action),
    sql`${r.edited} IS ${c.edited}`,
    sameText(r.edited_company, c.edited_company),
    sameText(r.edited_category, c.edited_category),
  ]);

/**
 * The guards every statement image shares (a review's, an import's): the statement's status and
 * completion, its row count, and each row of the image with `rowExact` of its stored row.
 */
export function statementShows<Row>(
  db: Db,
  id: string,
  shown: { status: string; completed_at: string | null; rows: Record<string, Row> },
  rowExact: (row: Row) => SQL[],
): SQL[] {
  const one = sql`1`;
  const statement = exists(
    db
      .select({ one })
      .from(s)
      .where(
        and(eq(s.id, id), sameText(s.status, shown.status), sql`${s.completed_at} IS ${shown.completed_at}`),
      ),
  );
  const count = sql`(SELECT COUNT(*) FROM ${r} WHERE ${r.statement_id} = ${id}) = ${Object.keys(shown.rows).length}`;
  const rows = Object.entries(shown.rows).map(([idx, c]) =>
    exists(
      db
        .select({ one })
        .from(r)
        .where(and(eq(r.statement_id, id), eq(r.tx_index, Number(idx)), ...rowExact(c))),
    ),
  );
  return [statement, count, ...rows];
}
