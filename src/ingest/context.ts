/**
 * Month-to-date context of a new transaction: its category's spend this month, the merchant's
 * visit count this month, and the category's monthly budget target and percentage when the
 * budget targets name it. Written in cents, in SQL, in the insert's own batch (the month's reads
 * see the row). Targets that cannot be read give no context (never blocks ingestion).
 */
import type { Db } from "../db";
import { readTargetsData } from "../domains/budget/queries";
import { newRowContextStatement } from "../domains/transactions/ingest-queries";
import { log } from "../lib/log";
import { type Cents, roundCents, toCents } from "../lib/money";
import type { PrefetchedTargets, TransactionRecord } from "./types";

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
    typeof v !== "number" || !Number.isFinite(v) ? null : doc?.money === "cents" ? roundCents(v) : toCents(v);
  const monthly = cents(entry.monthly_amount);
  const annual = cents(entry.target);
  const value = monthly !== null && monthly > 0 ? monthly : annual !== null ? roundCents(annual / 12) : null;
  return value !== null && value > 0 ? value : null;
}

/**
 * The statement that writes a new row's context right after its insert, for the key it is written
 * under. The budget target comes from `targets` when they are of the row's year (read with the
 * settings), else is read now; null when the targets cannot be read (the row gets no context).
 */
export async function contextWriter(db: Db, tx: TransactionRecord, targets?: PrefetchedTargets) {
  const year = Number(tx.DateFileName.slice(0, 4));
  try {
    const doc =
      targets?.year === year
        ? targets.docs.find((d) => d.user_id === tx.UserId)?.data
        : await readTargetsData(db, tx.UserId, year);
    const target = doc ? monthlyTarget(doc, tx.Category) : null;
    return (dfn: string) => newRowContextStatement(db, { ...tx, DateFileName: dfn }, target);
  } catch (err) {
    log("warn", "ingest.context_failed", { error: String(err) });
    return null;
  }
}
