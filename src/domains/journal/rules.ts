/** Pure journal rules: group a month's rows into days, newest first, with running totals. */
import { round2, SPENDING_TYPES } from "../../lib/money";
import type { TransactionResponse } from "../transactions/schemas";

const SPENDING = new Set<string>(SPENDING_TYPES);

export function dayOf(dateFileName: string): string {
  return `${dateFileName.slice(0, 4)}-${dateFileName.slice(5, 7)}-${dateFileName.slice(8, 10)}`;
}

/** Rows arrive in any order; days come out newest first, mtd computed oldest to newest. */
export function groupDays(rows: TransactionResponse[], summaries: Record<string, string>) {
  const byDay = new Map<string, TransactionResponse[]>();
  for (const r of rows) {
    const d = dayOf(r.date_file_name);
    byDay.set(d, [...(byDay.get(d) ?? []), r]);
  }
  let running = 0;
  const oldestFirst = [...byDay.keys()].sort().map((date) => {
    const txs = byDay.get(date)!.sort((a, b) => b.date_file_name.localeCompare(a.date_file_name));
    const spend = txs
      .filter((t) => SPENDING.has(t.transaction_type ?? ""))
      .reduce((s, t) => s + (t.amount ?? 0), 0);
    const deposits = txs
      .filter((t) => !SPENDING.has(t.transaction_type ?? ""))
      .reduce((s, t) => s + (t.amount ?? 0), 0);
    running += spend;
    return {
      date,
      day_total: round2(spend),
      deposit_total: round2(deposits),
      count: txs.length,
      mtd_total: round2(running),
      transactions: txs,
      summary: summaries[date] ?? null,
    };
  });
  return { days: oldestFirst.reverse(), monthTotal: round2(running) };
}

/** Monthly ceiling from the annual spending ceiling; null when none is configured. */
export function monthlyCeiling(annual: number | null | undefined): number | null {
  return typeof annual === "number" && annual > 0 ? round2(annual / 12) : null;
}
