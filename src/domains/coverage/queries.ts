/**
 * D1 queries for coverage. An email row is any row without a synthetic statement key
 * (`…_stmt_<institution>_<hash8>.pdf`); a statement row is any row with a StatementSource (an email
 * row enriched from a statement is both, so it counts as caught).
 */
import { DEPOSIT_SQL, SPENDING_SQL } from "../../lib/money";
import type { CaptureRow } from "./rules";

const EMAIL = "DeletedAt IS NULL AND DateFileName NOT LIKE '%\\_stmt\\_%' ESCAPE '\\'";
/** Direction of a row; `t` is an optional table alias prefix ("e."). */
const dir = (t = "") =>
  `CASE WHEN ${t}${SPENDING_SQL} THEN 'withdrawal' WHEN ${t}${DEPOSIT_SQL} THEN 'deposit' END`;
const CENTS = "CAST(round(abs(Amount) * 100) AS INTEGER)";

/** Each institution's latest alert day ever, and its distinct alert days from `lo` on. */
export async function alertDays(db: D1Database, lo: string) {
  const [last, days] = await db.batch<{ institution: string; day: string }>([
    db.prepare(
      `SELECT Institution AS institution, MAX(substr(DateFileName, 1, 10)) AS day FROM transactions
       WHERE ${EMAIL} AND Institution IS NOT NULL AND trim(Institution) <> '' GROUP BY 1`,
    ),
    db
      .prepare(
        `SELECT Institution AS institution, substr(DateFileName, 1, 10) AS day FROM transactions
         WHERE ${EMAIL} AND Institution IS NOT NULL AND DateFileName >= ? GROUP BY 1, 2`,
      )
      .bind(lo),
  ]);
  return { last: last?.results ?? [], days: days?.results ?? [] };
}

/**
 * Statement rows per institution and direction, and how many an alert email caught: an email row
 * on the same day, amount within 0.01 and the same direction. Identical same-day statement rows are
 * ranked so that one email catches at most one of them.
 */
export async function captureRows(db: D1Database): Promise<CaptureRow[]> {
  const { results } = await db
    .prepare(
      `WITH s AS (
         SELECT COALESCE(Institution, 'Unknown') AS institution, substr(DateFileName, 1, 10) AS day,
           ${CENTS} AS cents, ${dir()} AS dir, DateFileName AS dfn,
           (DateFileName NOT LIKE '%\\_stmt\\_%' ESCAPE '\\') AS self
         FROM transactions
         WHERE StatementSource IS NOT NULL AND DeletedAt IS NULL AND Amount IS NOT NULL
           AND (${SPENDING_SQL} OR ${DEPOSIT_SQL})
       ), r AS (
         SELECT *, ROW_NUMBER() OVER (PARTITION BY day, cents, dir, self ORDER BY dfn) AS k FROM s
       )
       SELECT institution, dir, COUNT(*) AS total,
         SUM(self OR (
           SELECT COUNT(*) FROM transactions e
           WHERE e.DateFileName >= r.day || '_' AND e.DateFileName < r.day || '~'
             AND e.DeletedAt IS NULL AND e.DateFileName NOT LIKE '%\\_stmt\\_%' ESCAPE '\\'
             AND e.Amount IS NOT NULL AND abs(CAST(round(abs(e.Amount) * 100) AS INTEGER) - r.cents) <= 1
             AND (${dir("e.")}) = r.dir
         ) >= r.k) AS caught
       FROM r GROUP BY 1, 2`,
    )
    .all<CaptureRow>();
  return results;
}
