/** The guards of a statement review's revert: the statement and its rows as a review image shows them. */
import { and, eq, exists, type SQL, sql } from "drizzle-orm";
import type { Db } from "../../db";
import { statementRows as r, statements as s } from "../../db/schema";
import type { ReviewImage } from "./review-image";

/**
 * Conditions that hold while statement `id` shows `shown` exactly: its status, and every row (no
 * more, no fewer) with the image's choices. Each is one guard (a few parameters each).
 */
export function reviewShows(db: Db, id: string, shown: ReviewImage): SQL[] {
  const one = sql`1`;
  const statement = exists(
    db
      .select({ one })
      .from(s)
      .where(
        and(
          eq(s.id, id),
          sql`${s.status} = ${shown.status} COLLATE BINARY`,
          sql`${s.completed_at} IS ${shown.completed_at}`,
        ),
      ),
  );
  const count = sql`(SELECT COUNT(*) FROM ${r} WHERE ${r.statement_id} = ${id}) = ${Object.keys(shown.rows).length}`;
  const rows = Object.entries(shown.rows).map(([idx, c]) =>
    exists(
      db
        .select({ one })
        .from(r)
        .where(
          and(
            eq(r.statement_id, id),
            eq(r.tx_index, Number(idx)),
            sql`${r.action} = ${c.action} COLLATE BINARY`,
            sql`${r.edited} IS ${c.edited}`,
            sql`${r.edited_company} IS ${c.edited_company} COLLATE BINARY`,
            sql`${r.edited_category} IS ${c.edited_category} COLLATE BINARY`,
          ),
        ),
    ),
  );
  return [statement, count, ...rows];
}
