/** Monthly summary and spending trend: SQL aggregates in cents, pure rules, decimal out. */
import { type Db, getDb } from "../../db";
import type { ServiceCtx } from "../../lib/context";
import { asCents, fromCentsField, ZERO_CENTS, addCents, type Cents } from "../../lib/money";
import { daysInMonth, localToday } from "../../lib/local-time";
import { addMonths, monthBounds, monthOfDateFileName, rangeBounds } from "../../lib/month";
import { getConfig } from "../config/service";
import {
  byCompany,
  byMonthCategory,
  commentedByCategory,
  companyRows,
  windowByMonthCategory,
} from "./queries";
import { anomalyOut, deltaOut, monthOut, paceOut, trendMonthOut } from "./response";
import { anomalies, categoryDeltas, monthSummary, pace, pct } from "./rules";

const BASELINE_MONTHS = 6;

export async function currentMonth(
  ctx: ServiceCtx,
): Promise<{ month: string; day: number; timezone: string }> {
  const { timezone } = await getConfig(ctx);
  const t = localToday(ctx.clock(), timezone);
  return { month: t.month, day: t.day, timezone };
}

/** `YYYY-MM` of an aggregate's `YYYY.MM` month key. */
const monthOf = (ym: string) => monthOfDateFileName(`${ym}.`);

/**
 * The summary of `month` in one round trip: the window, baseline months through this month, is one
 * covering-index scan that yields both months' categories, the anomaly baselines and the pace's
 * month-to-date sums.
 */
export async function getSummary(ctx: ServiceCtx, month: string) {
  const db = getDb(ctx.env.DB);
  const prevMonth = addMonths(month, -1);
  const cur = monthBounds(month);
  const prev = monthBounds(prevMonth);
  const today = await currentMonth(ctx);
  const isCurrent = today.month === month;
  const [window, cCo, cDep, pCo, pDep, commented] = await db.batch([
    windowByMonthCategory(
      db,
      rangeBounds(addMonths(month, -BASELINE_MONTHS), month),
      isCurrent ? today.day : 31,
    ),
    byCompany(db, cur, false),
    byCompany(db, cur, true),
    byCompany(db, prev, false),
    byCompany(db, prev, true),
    commentedByCategory(db, cur),
  ]);
  const inMonth = (m: string) => window.filter((r) => monthOf(r.month) === m);
  const current = monthSummary(month, inMonth(month), companyRows(cCo), companyRows(cDep));
  const previous = monthSummary(prevMonth, inMonth(prevMonth), companyRows(pCo), companyRows(pDep));
  const priorMonths = Array.from({ length: BASELINE_MONTHS }, (_, i) =>
    addMonths(month, -BASELINE_MONTHS + i),
  );
  const perMonth = priorMonths.map((m) => Object.fromEntries(inMonth(m).map((r) => [r.key, r.amount])));
  const delta = current.total_spending - previous.total_spending;
  const out = monthOut(current);
  return {
    month,
    total_spent: out.total_spending,
    deposits_by_company: out.deposits_by_company,
    current: out,
    previous: monthOut(previous),
    delta_amount: fromCentsField(delta),
    delta_percent: pct(delta, previous.total_spending),
    category_deltas: categoryDeltas(current, previous).map(deltaOut),
    anomalies: anomalies(
      // MonthSummary carries the rows' cents in the API schema's number fields.
      Object.fromEntries(Object.entries(current.by_category).map(([k, v]) => [k, asCents(v.amount)])),
      perMonth,
      Object.fromEntries(commented.map((r) => [r.key, r.amount])),
    ).map(anomalyOut),
    pace: isCurrent ? paceOut(paceBlock(month, today.day, window)) : null,
  };
}

/** The pace of `month` from the window's groups: per month, its month-to-date and total. */
function paceBlock(month: string, day: number, window: { month: string; to_date: Cents; amount: Cents }[]) {
  const get = (m: string) => {
    let toDate = ZERO_CENTS;
    let total = ZERO_CENTS;
    for (const r of window) {
      if (monthOf(r.month) !== m) continue;
      toDate = addCents(toDate, r.to_date);
      total = addCents(total, r.amount);
    }
    return { toDate, total };
  };
  const prior = Array.from({ length: BASELINE_MONTHS }, (_, i) => get(addMonths(month, -1 - i)));
  return pace(day, daysInMonth(month), get(month).toDate, get(addMonths(month, -1)).toDate, prior);
}

/** The trend of `months` months ending at `end`. */
export async function trendOf(db: Db, months: number, end: string) {
  const start = addMonths(end, -(months - 1));
  const rows = await byMonthCategory(db, rangeBounds(start, end));
  return {
    months: Array.from({ length: months }, (_, i) => addMonths(start, i)).map((m) => {
      const mine = rows.filter((r) => monthOf(r.month) === m).sort((a, b) => b.amount - a.amount);
      return trendMonthOut({
        year_month: m,
        total_spending: mine.reduce((s, r) => s + r.amount, 0),
        spending_count: mine.reduce((s, r) => s + r.n, 0),
        by_category: Object.fromEntries(mine.map((r) => [r.key, { amount: r.amount, count: r.n }])),
      });
    }),
  };
}

export async function getTrend(ctx: ServiceCtx, { months, endMonth }: { months: number; endMonth?: string }) {
  const end = endMonth ?? (await currentMonth(ctx)).month;
  return trendOf(getDb(ctx.env.DB), months, end);
}
