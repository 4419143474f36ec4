/**
 * Queries for coverage. For the alert cadence an email row is any row without a synthetic
 * statement key (`…_stmt_<institution>_<hash8>.pdf`); the capture rate reads the statements'
 * reconciled rows (see captureRows).
 */
import { type AnyColumn, and, gte, isNotNull, isNull, notInArray, type SQL, sql } from "drizzle-orm";
import type { Db } from "../../db";
import { transactions } from "../../db/schema";
import { captureRows as statementCaptureRows } from "../statements/queries";
import { STATEMENT_RECIPIENT } from "../statements/views";
import { MANUAL_RECIPIENT } from "../transactions/rules";

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

/**
 * Each institution's latest alert day ever, its distinct alert days from `lo` on, and the
 * statements' capture rows (`captureRows`): ONE round trip.
 */
export async function coverageRows(db: Db, lo: string) {
  const institution = sql<string>`${t.Institution}`;
  const day = sql<string>`substr(${t.DateFileName}, 1, 10)`;
  const [last, days, capture] = await db.batch([
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
    captureRows(db),
  ]);
  return { last, days, capture };
}

/** Recipients of rows no alert email delivered: statement imports and hand-entered rows. */
const NOT_ALERT_RECIPIENTS = [STATEMENT_RECIPIENT, MANUAL_RECIPIENT] as const;

/** Statement rows per institution and direction, and how many an alert email had already caught. */
export const captureRows = (db: Db) => statementCaptureRows(db, NOT_ALERT_RECIPIENTS);
