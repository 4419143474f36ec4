/**
 * Month-to-date context of a new transaction: its category's spend this month, the merchant's
 * visit count this month, and the category's monthly budget target and percentage when the
 * budget targets name it. Any error gives no context (never blocks ingestion).
 */
import { log } from "../lib/log";
import type { TransactionContext, TransactionRecord } from "./types";

const SPENDING_TYPES = ["purchase", "withdrawal", "preauth"];

interface TargetEntry {
  target?: number;
  monthly_amount?: number;
  input_mode?: string;
}

/** Monthly target of `category` from a budget targets document (pure; case-insensitive). */
export function monthlyTarget(data: unknown, category: string): number | null {
  const cats = (data as { categories?: Record<string, TargetEntry> } | null)?.categories;
  if (!cats || typeof cats !== "object") return null;
  const entry = Object.entries(cats).find(([k]) => k.toLowerCase() === category.toLowerCase())?.[1];
  if (!entry) return null;
  const monthly = typeof entry.monthly_amount === "number" ? entry.monthly_amount : null;
  const annual = typeof entry.target === "number" ? entry.target : null;
  const value = monthly ?? (annual !== null ? annual / 12 : null);
  return value !== null && value > 0 ? Math.round(value * 100) / 100 : null;
}

export async function computeContext(
  db: D1Database,
  tx: TransactionRecord,
): Promise<TransactionContext | null> {
  try {
    const month = tx.DateFileName.slice(0, 8); // "YYYY.MM."
    const year = Number(tx.DateFileName.slice(0, 4));
    const types = SPENDING_TYPES.map(() => "?").join(",");
    const [spend, visits, budget] = await db.batch([
      db
        .prepare(
          `SELECT COALESCE(SUM(Amount), 0) AS total FROM transactions
           WHERE UserId = ? AND DateFileName >= ? AND DateFileName < ? AND Category = ? COLLATE NOCASE
             AND DeletedAt IS NULL AND Ignored = 0 AND TransactionType IN (${types})`,
        )
        .bind(tx.UserId, month, `${month}~`, tx.Category, ...SPENDING_TYPES),
      db
        .prepare(
          `SELECT COUNT(*) AS n FROM transactions
           WHERE UserId = ? AND Company = ? COLLATE NOCASE AND DateFileName >= ? AND DateFileName < ?
             AND DeletedAt IS NULL`,
        )
        .bind(tx.UserId, tx.Company ?? "", month, `${month}~`),
      db
        .prepare("SELECT data FROM budget_config WHERE user_id = ? AND year = ? AND kind = 'targets'")
        .bind(tx.UserId, year),
    ]);
    const total = Number((spend?.results?.[0] as { total?: number } | undefined)?.total ?? 0);
    const count = Number((visits?.results?.[0] as { n?: number } | undefined)?.n ?? 0);
    const ctx: TransactionContext = {
      category_month_total: Math.round(total * 100) / 100,
      merchant_month_count: tx.Company ? count : 0,
    };
    const raw = (budget?.results?.[0] as { data?: string } | undefined)?.data;
    const target = raw ? monthlyTarget(JSON.parse(raw), tx.Category) : null;
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

/** Saves the context on the record (best effort). */
export async function saveContext(
  db: D1Database,
  tx: TransactionRecord,
  ctx: TransactionContext,
): Promise<void> {
  try {
    await db
      .prepare("UPDATE transactions SET TransactionContext = ? WHERE ForwardedTo = ? AND DateFileName = ?")
      .bind(JSON.stringify(ctx), tx.ForwardedTo, tx.DateFileName)
      .run();
  } catch (err) {
    log("warn", "ingest.context_save_failed", { error: String(err) });
  }
}
