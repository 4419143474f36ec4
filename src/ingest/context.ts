/**
 * Month-to-date context of a new transaction: its category's spend this month, the merchant's
 * visit count this month, and the category's monthly budget target and percentage when the
 * budget targets name it. Computed in cents; stored as the decimal, API-shaped JSON snapshot.
 * Any error gives no context (never blocks ingestion).
 */
import type { Db } from "../db";
import { targetsQuery } from "../domains/budget/queries";
import {
  categoryMonthSpendQuery,
  merchantMonthVisitsQuery,
  newRowContextStatement,
  setContextStatement,
} from "../domains/transactions/ingest-queries";
import { log } from "../lib/log";
import { type Cents, roundCents, toCents, ZERO_CENTS } from "../lib/money";
import type { PrefetchedTargets, TransactionContext, TransactionRecord } from "./types";

interface TargetEntry {
  target?: number;
  monthly_amount?: number;
}

/**
 * Monthly target of `category` in cents from a budget targets document (pure; case-insensitive).
 * Documents marked `"money": "cents"` hold cents; older (unmarked) ones hold decimal amounts.
 */
export function monthlyTarget(data: unknown, category: string): Cents | null {
  const doc = data as { categories?: Record<string, TargetEntry>; money?: string } | null;
  const cats = doc?.categories;
  if (!cats || typeof cats !== "object") return null;
  const entry = Object.entries(cats).find(([k]) => k.toLowerCase() === category.toLowerCase())?.[1];
  if (!entry) return null;
  const cents = (v: unknown) =>
    typeof v === "number" && Number.isFinite(v)
      ? doc?.money === "cents"
        ? roundCents(v)
        : toCents(v)
      : null;
  const monthly = cents(entry.monthly_amount);
  const annual = cents(entry.target);
  const value = monthly !== null && monthly > 0 ? monthly : annual !== null ? roundCents(annual / 12) : null;
  return value !== null && value > 0 ? value : null;
}

/**
 * The context's three reads (category spend, merchant visits, budget targets) for one `db.batch`;
 * the commit sends them after the insert in the insert's own batch (they see the new row).
 */
export function contextQueries(db: Db, tx: TransactionRecord) {
  const year = Number(tx.DateFileName.slice(0, 4));
  return [
    categoryMonthSpendQuery(db, tx),
    merchantMonthVisitsQuery(db, tx),
    targetsQuery(db, tx.UserId, year),
  ] as const;
}

export type ContextReads = [{ total: Cents }[], { n: number }[], { data: unknown }[]];

/** The context of the three reads' results (null when they cannot be read into one). */
export function contextOf(
  tx: TransactionRecord,
  [spend, visits, budget]: ContextReads,
): TransactionContext | null {
  try {
    const total: Cents = spend[0]?.total ?? ZERO_CENTS;
    const ctx: TransactionContext = {
      money: "cents",
      category_month_total: total,
      merchant_month_count: tx.Company ? (visits[0]?.n ?? 0) : 0,
      // Always present (null without a target): the API's TransactionContext requires both.
      category_budget_target: null,
      category_budget_pct: null,
    };
    const raw = budget[0]?.data;
    const target = raw ? monthlyTarget(raw, tx.Category) : null;
    if (target !== null) {
      ctx.category_budget_target = target;
      ctx.category_budget_pct = Math.round((total / target) * 1000) / 10;
    }
    return ctx;
  } catch (err) {
    log("warn", "ingest.context_failed", { error: String(err) });
    return null;
  }
}

/**
 * The statement that writes a new row's context in its insert's own batch (after the insert), when
 * the row's budget targets were read up front (`targets` of its year); else null (the commit then
 * reads the context with the insert and writes it after).
 */
export function newRowContext(db: Db, tx: TransactionRecord, targets?: PrefetchedTargets) {
  if (!targets || targets.year !== Number(tx.DateFileName.slice(0, 4))) return null;
  const doc = targets.docs.find((d) => d.user_id === tx.UserId)?.data;
  let target: Cents | null = null;
  try {
    target = doc ? monthlyTarget(doc, tx.Category) : null;
  } catch (err) {
    log("warn", "ingest.context_failed", { error: String(err) });
    return null;
  }
  return newRowContextStatement(db, tx, target);
}

/** The context read on its own (one round trip); any error gives no context. */
export async function computeContext(db: Db, tx: TransactionRecord): Promise<TransactionContext | null> {
  try {
    const [a, b, c] = contextQueries(db, tx);
    return contextOf(tx, (await db.batch([a, b, c])) as ContextReads);
  } catch (err) {
    log("warn", "ingest.context_failed", { error: String(err) });
    return null;
  }
}

/** The statement that saves the context on the record (for the caller's batch). */
export const contextWrite = (db: Db, tx: TransactionRecord, ctx: TransactionContext) =>
  setContextStatement(db, { forwardedTo: tx.ForwardedTo, dateFileName: tx.DateFileName }, ctx);
