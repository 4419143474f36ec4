/** First-run reads and the demo household's writes. */
import { bumpVersion } from "../../db/lists";
import { eq, sql } from "drizzle-orm";
import type { Db } from "../../db";
import { budgetConfig, overrides, transactions, userMappings } from "../../db/schema";

/** Whether any transaction row exists (trash and ignored rows count: the journal is not new). */
export async function hasAnyTransaction(db: Db): Promise<boolean> {
  const rows = await db.select({ id: transactions.DateFileName }).from(transactions).limit(1);
  return rows.length > 0;
}

/** Recipient addresses alerts have arrived at (the mapping table learns each one). */
export async function knownRecipients(db: Db, exclude: string): Promise<string[]> {
  const rows = await db.select({ to: userMappings.ForwardedTo }).from(userMappings).limit(20);
  return rows.map((r) => r.to).filter((to) => to.toLowerCase() !== exclude.toLowerCase());
}

export async function countTransactions(db: Db): Promise<number> {
  const [row] = await db.select({ n: sql<number>`COUNT(*)`.mapWith(Number) }).from(transactions);
  return row?.n ?? 0;
}

export async function hasBudget(db: Db, year: number): Promise<boolean> {
  const rows = await db
    .select({ year: budgetConfig.year })
    .from(budgetConfig)
    .where(eq(budgetConfig.year, year))
    .limit(1);
  return rows.length > 0;
}

type TxRow = typeof transactions.$inferInsert;
type BudgetRow = typeof budgetConfig.$inferInsert;

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
  const perChunk = Math.max(1, Math.floor(90 / Math.max(1, Object.keys(input.rows[0] ?? {}).length)));
  const stmts = [];
  for (let i = 0; i < input.rows.length; i += perChunk)
    stmts.push(
      db
        .insert(transactions)
        .values(input.rows.slice(i, i + perChunk))
        .onConflictDoNothing(),
    );
  for (const o of input.overrides)
    stmts.push(
      db
        .insert(overrides)
        .values({ ...o, created_at: input.now, updated_at: input.now })
        .onConflictDoNothing(),
    );
  // A new overrides version, so every isolate's resolver sees the demo's rules.
  if (input.overrides.length) stmts.push(bumpVersion(db, "overrides", input.now));
  stmts.push(
    db
      .insert(userMappings)
      .values({ ForwardedTo: input.recipient, UserId: input.userId, created_at: input.now })
      .onConflictDoNothing(),
  );
  for (const b of input.budget) stmts.push(db.insert(budgetConfig).values(b).onConflictDoNothing());
  const [first, ...rest] = stmts;
  if (first) await db.batch([first, ...rest]);
}
