/**
 * Queries for coverage. An email row is any row without a synthetic statement key
 * (`…_stmt_<institution>_<hash8>.pdf`); a statement row is any row with a StatementSource (an email
 * row enriched from a statement is both, so it counts as caught). Amounts are integer cents.
 */
import { type AnyColumn, and, gte, isNotNull, isNull, type SQL, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import type { Db } from "../../db";
import { transactions } from "../../db/schema";
import { DEPOSIT_TYPES, SPENDING_TYPES } from "../../lib/transaction-types";

/** The columns these filters read, of the table or of its alias. */
type Tx = Record<"DeletedAt" | "DateFileName" | "TransactionType", AnyColumn>;
const t = transactions;

/** Not deleted and not a statement's synthetic row. */
const emailRow = (x: Tx): SQL =>
  and(isNull(x.DeletedAt), sql`${x.DateFileName} NOT LIKE '%\\_stmt\\_%' ESCAPE '\\'`)!;
const isStatementKey = (x: Tx): SQL => sql`(${x.DateFileName} LIKE '%\\_stmt\\_%' ESCAPE '\\')`;
const list = (types: readonly string[]) =>
  sql.join(
    types.map((v) => sql`${v}`),
    sql`, `,
  );
/** Direction of a row: 'withdrawal' (spending types), 'deposit' (deposit types) or NULL. */
const direction = (x: Tx): SQL<string | null> =>
  sql`CASE WHEN ${x.TransactionType} IN (${list(SPENDING_TYPES)}) THEN 'withdrawal'
    WHEN ${x.TransactionType} IN (${list(DEPOSIT_TYPES)}) THEN 'deposit' END`;

/** Each institution's latest alert day ever, and its distinct alert days from `lo` on. */
export async function alertDays(db: Db, lo: string) {
  const institution = sql<string>`${t.Institution}`;
  const day = sql<string>`substr(${t.DateFileName}, 1, 10)`;
  const [last, days] = await db.batch([
    db
      .select({ institution, day: sql<string>`MAX(${day})` })
      .from(t)
      .where(and(emailRow(t), isNotNull(t.Institution), sql`trim(${t.Institution}) <> ''`))
      .groupBy(t.Institution),
    db
      .select({ institution, day })
      .from(t)
      .where(and(emailRow(t), isNotNull(t.Institution), gte(t.DateFileName, lo)))
      .groupBy(t.Institution, day),
  ]);
  return { last, days };
}

/**
 * Statement rows per institution and direction, and how many an alert email caught: an email row
 * on the same day, amount within 1 cent and the same direction. Identical same-day statement rows
 * are ranked so that one email catches at most one of them.
 */
export function captureRows(db: Db) {
  const e = alias(transactions, "e");
  return db.all<{ institution: string; dir: string; caught: number; total: number }>(sql`
    WITH s AS (
      SELECT COALESCE(${t.Institution}, 'Unknown') AS institution, substr(${t.DateFileName}, 1, 10) AS day,
        abs(${t.Amount}) AS cents, ${direction(t)} AS dir, ${t.DateFileName} AS dfn,
        NOT ${isStatementKey(t)} AS self
      FROM ${t}
      WHERE ${t.StatementSource} IS NOT NULL AND ${t.DeletedAt} IS NULL AND ${t.Amount} IS NOT NULL
        AND ${direction(t)} IS NOT NULL
    ), r AS (
      SELECT *, ROW_NUMBER() OVER (PARTITION BY day, cents, dir, self ORDER BY dfn) AS k FROM s
    )
    SELECT institution, dir, COUNT(*) AS total,
      SUM(self OR (
        SELECT COUNT(*) FROM ${t} AS ${sql.identifier("e")}
        WHERE ${e.DateFileName} >= r.day || '_' AND ${e.DateFileName} < r.day || '~'
          AND ${emailRow(e)} AND ${e.Amount} IS NOT NULL AND abs(abs(${e.Amount}) - r.cents) <= 1
          AND ${direction(e)} = r.dir
      ) >= r.k) AS caught
    FROM r GROUP BY 1, 2`);
}
