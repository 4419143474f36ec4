/** First-run reads and the demo household's writes. */
import { and, desc, isNull, sql } from "drizzle-orm";
import { bumpVersion } from "../../db/lists";
import { type Db, namedBatch } from "../../db";
import { transactions } from "../../db/schema";
import { mappedRecipientsQuery } from "../../ingest/queries";
import { heartbeatQuery, type PollerHealth } from "../../ingest/sources/poller-queries";
import { insertMappingIfAbsent } from "../../ingest/queries";
import { passwordSetQuery } from "../auth/queries";
import { hasBudgetYear, type ItemInsert, insertItemIfAbsent } from "../budget/queries";
import { insertOverrideIfAbsent } from "../overrides/queries";
import { insertRowsIfAbsent } from "../transactions/queries";

const anyTransactionQuery = (db: Db) =>
  db.select({ id: transactions.DateFileName }).from(transactions).limit(1);

/** Whether any transaction row exists (trash and ignored rows count: the journal is not new). */
export async function hasAnyTransaction(db: Db): Promise<boolean> {
  const rows = await anyTransactionQuery(db);
  return rows.length > 0;
}

interface SetupRows {
  any: boolean;
  passwordSet: boolean;
  recipients: string[];
  heartbeat: PollerHealth | null;
}

/** The first-run screen's facts in one round trip. */
export async function readSetupRows(db: Db, exclude: string): Promise<SetupRows> {
  const r = await namedBatch(db, {
    any: anyTransactionQuery(db),
    password: passwordSetQuery(db),
    recipients: mappedRecipientsQuery(db),
    heartbeat: heartbeatQuery(db),
  });
  return {
    any: r.any.length > 0,
    passwordSet: r.password.length > 0,
    recipients: r.recipients.map((x) => x.to).filter((to) => to.toLowerCase() !== exclude.toLowerCase()),
    heartbeat: r.heartbeat[0] ?? null,
  };
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
