/**
 * Step 7: notify about a new transaction unless its company is blocked or its type is not one an
 * alert reports. The providers live in src/notify (the monthly summary uses them too).
 */
import { type Cents, formatCents } from "../lib/money";
import { ALERT_TYPES } from "../lib/transaction-types";
import type { NotifyMessage } from "../notify";
import type { TransactionRecord } from "./types";

const KNOWN_TYPES: ReadonlySet<string> = new Set(ALERT_TYPES);

/** Whether a transaction notifies (pure). */
export function shouldNotify(
  tx: Pick<TransactionRecord, "Company" | "TransactionType">,
  blocked: string[],
): boolean {
  if (!tx.TransactionType || !KNOWN_TYPES.has(tx.TransactionType)) return false;
  const company = (tx.Company ?? "").trim().toLowerCase();
  return !(company && blocked.some((b) => b.trim().toLowerCase() === company));
}

const money = (cents: Cents) => `$${formatCents(cents)}`;

function ordinal(n: number): string {
  const s =
    n % 100 >= 11 && n % 100 <= 13
      ? "th"
      : (({ 1: "st", 2: "nd", 3: "rd" } as Record<number, string>)[n % 10] ?? "th");
  return `${n}${s}`;
}

/**
 * The transaction notification text (pure). The row's Amount and the context snapshot are cents. Budget progress and visits only with context.
 */
export function transactionMessage(tx: TransactionRecord, categoryName = tx.Category): NotifyMessage {
  const who = tx.Company ? ` at ${tx.Company}` : "";
  const lines = [`${money(tx.Amount)} ${tx.TransactionType}${who} (${categoryName}) via ${tx.Institution}`];
  const ctx = tx.TransactionContext;
  if (ctx) {
    let spend = `${categoryName}: ${money(ctx.category_month_total)} this month`;
    if (ctx.category_budget_target != null && ctx.category_budget_pct != null) {
      spend += ` (${ctx.category_budget_pct}% of ${money(ctx.category_budget_target)} budget)`;
    }
    lines.push(spend);
    if (tx.Company && ctx.merchant_month_count > 0) {
      lines.push(`${ordinal(ctx.merchant_month_count)} visit to ${tx.Company} this month`);
    }
  }
  return {
    kind: "transaction",
    title: `New ${tx.TransactionType}: ${money(tx.Amount)}`,
    text: lines.join("\n"),
  };
}
