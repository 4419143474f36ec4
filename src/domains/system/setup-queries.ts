/** First-run reads and the demo household's writes. */
import { and, desc, isNull, sql } from "drizzle-orm";
import { bumpVersion } from "../../db/lists";
import type { Db } from "../../db";
import { transactions } from "../../db/schema";
import { mappedRecipientsQuery } from "../../ingest/queries";
import { heartbeatQuery, type PollerHealth } from "../../ingest/sources/poller-queries";
import { insertMappingIfAbsent, knownRecipients } from "../../ingest/users";
import { log } from "../../lib/log";
import { passwordIsSet, passwordSetQuery } from "../auth/queries";
import { hasBudgetYear, type ItemInsert, insertItemIfAbsent } from "../budget/queries";
import { readHeartbeat } from "../health/queries";
import { insertOverrideIfAbsent } from "../overrides/queries";
import { insertRowsIfAbsent } from "../transactions/queries";

const anyTransactionQuery = (db: Db) =>
  db.select({ id: transactions.DateFileName }).from(transactions).limit(1);

/** Whether any transaction row exists (trash and ignored rows count: the journal is not new). */
export async function hasAnyTransaction(db: Db): Promise<boolean> {
  const rows = await anyTransactionQuery(db);
  return rows.length > 0;
}

export interface SetupRows {
  any: boolean;
  passwordSet: boolean;
  recipients: string[];
  heartbeat: PollerHealth | null;
}

/**
 * The first-run screen's facts in one round trip; when that batch fails, each read runs on its
 * own as before (the password and the heartbeat fail open, the others answer their error).
 */
export async function readSetupRows(db: Db, exclude: string): Promise<SetupRows> {
  const others = (to: string[]) => to.filter((x) => x.toLowerCase() !== exclude.toLowerCase());
  try {
    const [tx, pw, to, hb] = await db.batch([
      anyTransactionQuery(db),
      passwordSetQuery(db),
      mappedRecipientsQuery(db),
      heartbeatQuery(db),
    ]);
    return {
      any: tx.length > 0,
      passwordSet: pw.length > 0,
      recipients: others(to.map((r) => r.to)),
      heartbeat: hb[0] ?? null,
    };
  } catch (err) {
    log("warn", "setup.batch_failed", { error: String(err) });
  }
  const [any, passwordSet, recipients, heartbeat] = await Promise.all([
    hasAnyTransaction(db),
    passwordIsSet(db).catch(() => false),
    knownRecipients(db, exclude),
    readHeartbeat(db),
  ]);
  return { any, passwordSet, recipients, heartbeat };
}

export async function countTransactions(db: Db): Promise<number> {
  const [row] = await db.select({ n: sql<number>`COUNT(*)`.mapWith(Number) }).from(transactions);
  return row?.n ?? 0;
}

export const hasBudget = hasBudgetYear;

/** Each company's newest alert row (not one a statement brought), in one round trip: its receipt's purchase. */
export async function latestAlertRows(db: Db, companies: string[]) {
  const newest = (company: string) =>
    db
      .select({
        ForwardedTo: transactions.ForwardedTo,
        DateFileName: transactions.DateFileName,
        Amount: transactions.Amount,
      })
      .from(transactions)
      .where(
        and(
          sql`lower(${transactions.Company}) = ${company.toLowerCase()}`,
          isNull(transactions.StatementSource),
        ),
      )
      .orderBy(desc(transactions.DateFileName))
      .limit(1);
  const [first, ...rest] = companies.map(newest);
  if (!first) return [];
  return (await db.batch([first, ...rest])).map((rows) => rows[0]);
}

type TxRow = typeof transactions.$inferInsert;
type BudgetRow = ItemInsert;

/**
 * The demo's configuration in one atomic batch (rules, recipient mapping, budget). `rows` stays
 * for callers that restore rows; the demo itself sends none (its rows come through the pipeline).
 * D1 allows 100 bound values per statement, so rows go in small chunks.
 */
export async function writeDemo(
  db: Db,
  input: {
    rows: TxRow[];
    overrides: { company: string; category: string }[];
    recipient: string;
    userId: string;
    budget: BudgetRow[];
    now: string;
  },
): Promise<void> {
  const stmts = [
    ...insertRowsIfAbsent(db, input.rows),
    ...input.overrides.map((o) => insertOverrideIfAbsent(db, o, input.now)),
    // A new overrides version, so every isolate's resolver sees the demo's rules.
    ...(input.overrides.length ? [bumpVersion(db, "overrides", input.now)] : []),
    insertMappingIfAbsent(db, input.recipient, input.userId, input.now),
    ...input.budget.map((b) => insertItemIfAbsent(db, b)),
  ];
  const [first, ...rest] = stmts;
  if (first) await db.batch([first, ...rest]);
}
