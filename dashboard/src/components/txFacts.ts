import type { TransactionDetail } from "../api/types";
import { money, stamp, txWhen, typeLabel } from "../lib/format";

/**
 * Every field of a transaction as label/value rows for the drawer. `categoryMonthTotal`: the
 * category's total this month as it stands now (the stored context is the total when the row
 * arrived, under the category it had then), so a recategorize shows at once. `categoryTarget`:
 * the monthly target of the row's category as it stands now (null: none; undefined: not known
 * yet). With a live total the budget line is that total against that target, never against the
 * target stored with the row (another category's after a recategorize).
 */
export function txFacts(
  d: TransactionDetail,
  categoryMonthTotal?: number | null,
  categoryTarget?: number | null,
): [string, string][] {
  const tx = d.transaction;
  const when = txWhen(tx.date);
  const status = [
    tx.deleted_at ? `In trash since ${stamp(tx.deleted_at)}` : tx.ignored ? "Ignored" : "Counted",
    tx.needs_attention ? "needs review" : "",
  ]
    .filter(Boolean)
    .join(", ");
  const rows: [string, string][] = [
    ["Date", `${when.date} ${when.time} ${when.zone}`.trim()],
    ["Type", typeLabel(tx.transaction_type)],
    ["Institution", tx.institution ?? "—"],
    ["Cardholder", tx.name ?? "—"],
    ["Status", status],
    ["Comment", tx.comment || "—"],
  ];
  const c = tx.context;
  const live = typeof categoryMonthTotal === "number";
  if (c || live) {
    rows.push([
      "This category, this month",
      money(live ? categoryMonthTotal : (c?.category_month_total ?? 0)),
    ]);
  }
  if (c) rows.push(["Visits this month", String(c.merchant_month_count)]);
  const target = live ? categoryTarget : c?.category_budget_target;
  if (target) {
    const used = live ? (categoryMonthTotal / target) * 100 : c?.category_budget_pct;
    const pct = used !== null && used !== undefined ? ` (${Math.round(used)}% used)` : "";
    rows.push(["Category budget", `${money(target)}${pct}`]);
  }
  if (tx.statement_source) rows.push(["Statement", tx.statement_source]);
  rows.push(["Forwarded to", d.forwarded_to]);
  return rows;
}
