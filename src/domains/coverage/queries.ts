/**
 * Queries for coverage. For the alert cadence an email row is any row without a synthetic
 * statement key (`…_stmt_<institution>_<hash8>.pdf`); the capture rate reads the statements'
 * reconciled rows (see captureRows).
 */
import { type AnyColumn, and, eq, gte, isNotNull, isNull, ne, notInArray, type SQL, sql } from "drizzle-orm";
import type { Db } from "../../db";
import { statementRows, statements, transactions } from "../../db/schema";
import { STATEMENT_RECIPIENT } from "../statements/views";
import { MANUAL_RECIPIENT } from "../transactions/manual";

/** The columns these filters read, of the table or of its alias. */
type Tx = Record<"DeletedAt" | "DateFileName" | "ForwardedTo", AnyColumn>;
const t = transactions;

/** Not deleted, not a statement's synthetic row, not hand-added: what an alert email delivered. */
const emailRow = (x: Tx): SQL =>
  and(
    isNull(x.DeletedAt),
    sql`${x.DateFileName} NOT LIKE '%\\_stmt\\_%' ESCAPE '\\'`,
    notInArray(x.ForwardedTo, [...NOT_ALERT_RECIPIENTS]),
  )!;

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

/** Recipients of rows no alert email delivered: statement imports and hand-entered rows. */
export const NOT_ALERT_RECIPIENTS = [STATEMENT_RECIPIENT, MANUAL_RECIPIENT] as const;

/**
 * Statement rows per institution and direction, and how many an alert email had already caught:
 * the rule of a statement's own `capture` figure (reconciled as matched, ambiguous or a suspected
 * duplicate against a row an alert email delivered; never a hand-added or statement-imported row),
 * summed over every statement, so the two always agree. Rows another statement imported before
 * (`previously_imported`) are that statement's to count, not counted twice.
 */
export function captureRows(db: Db) {
  const r = statementRows;
  const caught = sql<number>`SUM(CASE WHEN ${r.reconcile_tier} IN ('matched', 'ambiguous', 'suspected_duplicate')
    AND ${r.db_forwarded_to} IS NOT NULL
    AND ${r.db_forwarded_to} NOT IN (${sql.join(
      NOT_ALERT_RECIPIENTS.map((v) => sql`${v}`),
      sql`, `,
    )}) THEN 1 ELSE 0 END)`;
  return db
    .select({
      institution: statements.institution,
      dir: r.type,
      caught,
      total: sql<number>`COUNT(*)`,
    })
    .from(r)
    .innerJoin(statements, eq(statements.id, r.statement_id))
    .where(ne(r.reconcile_tier, "previously_imported"))
    .groupBy(statements.institution, r.type);
}
