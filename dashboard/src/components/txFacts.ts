import type { TransactionDetail } from "../api/types";
import { money, stamp, txWhen, typeLabel } from "../lib/format";

/** Every field of a transaction as label/value rows for the drawer. */
export function txFacts(d: TransactionDetail): [string, string][] {
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
  if (c) {
    rows.push(["This category, this month", money(c.category_month_total)]);
    rows.push(["Visits this month", String(c.merchant_month_count)]);
    if (c.category_budget_target) {
      const pct = c.category_budget_pct !== null ? ` (${Math.round(c.category_budget_pct)}% used)` : "";
      rows.push(["Category budget", `${money(c.category_budget_target)}${pct}`]);
    }
  }
  if (tx.statement_source) rows.push(["Statement", tx.statement_source]);
  rows.push(["Forwarded to", d.forwarded_to]);
  return rows;
}
