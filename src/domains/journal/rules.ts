/**
 * Pure journal rules: group a month's rows into days, newest first, with running totals.
 * Totals add the rows' integer cents and leave as the API's decimal amounts.
 */
import { type Cents, fromCents, roundCents, ZERO_CENTS, sumCents, addCents } from "../../lib/money";
import { SPENDING_TYPES } from "../../lib/transaction-types";

/** Exactly the types SQL's spending() counts. */
const isSpending = (type: string | null) => (SPENDING_TYPES as readonly string[]).includes(type ?? "");

export function dayOf(dateFileName: string): string {
  return `${dateFileName.slice(0, 4)}-${dateFileName.slice(5, 7)}-${dateFileName.slice(8, 10)}`;
}

/** What grouping needs of a row; `tx` is what the day lists (the API's transaction). */
interface JournalRow<T> {
  dateFileName: string;
  type: string | null;
  /** The row's amount in cents (null counts as 0). */
  amount: Cents | null;
  tx: T;
}

/** Rows arrive in any order; days come out newest first, mtd computed oldest to newest. */
export function groupDays<T>(rows: JournalRow<T>[], summaries: Record<string, string>) {
  const byDay = new Map<string, JournalRow<T>[]>();
  for (const r of rows) {
    const d = dayOf(r.dateFileName);
    byDay.set(d, [...(byDay.get(d) ?? []), r]);
  }
  let running = ZERO_CENTS;
  const total = (rs: JournalRow<T>[]) => sumCents(rs.map((r) => r.amount ?? ZERO_CENTS));
  const oldestFirst = [...byDay.keys()].sort().map((date) => {
    const day = byDay.get(date)!.sort((a, b) => b.dateFileName.localeCompare(a.dateFileName));
    const spend = total(day.filter((r) => isSpending(r.type)));
    const deposits = total(day.filter((r) => !isSpending(r.type)));
    running = addCents(running, spend);
    return {
      date,
      day_total: fromCents(spend),
      deposit_total: fromCents(deposits),
      count: day.length,
      mtd_total: fromCents(running),
      transactions: day.map((r) => r.tx),
      summary: summaries[date] ?? null,
    };
  });
  return { days: oldestFirst.reverse(), monthTotal: fromCents(running) };
}

/** Monthly ceiling (cents) from the annual spending ceiling (cents); null when none is configured. */
export function monthlyCeiling(annual: Cents | null | undefined): Cents | null {
  return typeof annual === "number" && annual > 0 ? roundCents(annual / 12) : null;
}
