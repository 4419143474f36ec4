/** Monthly summary and spending trend: SQL aggregates in cents, pure rules, decimal out. */
import { getDb } from "../../db";
import type { ServiceCtx } from "../../lib/context";
import { fromCents } from "../../lib/money";
import { daysInMonth, localToday } from "../../lib/local-time";
import { addMonths, monthBounds, monthOfDateFileName, rangeBounds } from "../../lib/month";
import { getConfig } from "../config/service";
import { byCategory, byCompany, byMonthCategory, commentedByCategory, toDateByMonth } from "./queries";
import { anomalyOut, deltaOut, monthOut, paceOut, trendMonthOut } from "./response";
import { anomalies, categoryDeltas, monthSummary, pace, pct } from "./rules";

type Ctx = Pick<ServiceCtx, "env" | "clock">;
const BASELINE_MONTHS = 6;

export async function currentMonth(ctx: Ctx): Promise<{ month: string; day: number; timezone: string }> {
  const { timezone } = await getConfig({ ctx });
  const t = localToday(ctx.clock(), timezone);
  return { month: t.month, day: t.day, timezone };
}

/** `YYYY-MM` of an aggregate's `YYYY.MM` month key. */
const monthOf = (ym: string) => monthOfDateFileName(`${ym}.`);

export async function getSummary(ctx: Ctx, month: string) {
  const db = getDb(ctx.env.DB);
  const prevMonth = addMonths(month, -1);
  const cur = monthBounds(month);
  const prev = monthBounds(prevMonth);
  const prior = rangeBounds(addMonths(month, -BASELINE_MONTHS), prevMonth);
  const today = await currentMonth(ctx);
  const isCurrent = today.month === month;
  const [cCat, cCo, cDep, pCat, pCo, pDep, history, commented, toDate] = await db.batch([
    byCategory(db, cur),
    byCompany(db, cur, false),
    byCompany(db, cur, true),
    byCategory(db, prev),
    byCompany(db, prev, false),
    byCompany(db, prev, true),
    byMonthCategory(db, prior),
    commentedByCategory(db, cur),
    toDateByMonth(db, rangeBounds(addMonths(month, -BASELINE_MONTHS), month), isCurrent ? today.day : 31),
  ]);
  const current = monthSummary(month, cCat, cCo, cDep);
  const previous = monthSummary(prevMonth, pCat, pCo, pDep);
  const priorMonths = Array.from({ length: BASELINE_MONTHS }, (_, i) =>
    addMonths(month, -BASELINE_MONTHS + i),
  );
  const perMonth = priorMonths.map((m) =>
    Object.fromEntries(history.filter((r) => monthOf(r.month) === m).map((r) => [r.key, r.amount])),
  );
  const delta = current.total_spending - previous.total_spending;
  const out = monthOut(current);
  return {
    month,
    total_spent: out.total_spending,
    deposits_by_company: out.deposits_by_company,
    current: out,
    previous: monthOut(previous),
    delta_amount: fromCents(delta),
    delta_percent: pct(delta, previous.total_spending),
    category_deltas: categoryDeltas(current, previous).map(deltaOut),
    anomalies: anomalies(
      Object.fromEntries(Object.entries(current.by_category).map(([k, v]) => [k, v.amount])),
      perMonth,
      Object.fromEntries(commented.map((r) => [r.key, r.amount])),
    ).map(anomalyOut),
    pace: isCurrent ? paceOut(paceBlock(month, today.day, toDate)) : null,
  };
}

function paceBlock(month: string, day: number, toDate: { month: string; to_date: number; total: number }[]) {
  const get = (m: string) => toDate.find((r) => monthOf(r.month) === m);
  const prior = Array.from({ length: BASELINE_MONTHS }, (_, i) => addMonths(month, -1 - i)).map((m) => ({
    toDate: get(m)?.to_date ?? 0,
    total: get(m)?.total ?? 0,
  }));
  return pace(
    day,
    daysInMonth(month),
    get(month)?.to_date ?? 0,
    get(addMonths(month, -1))?.to_date ?? 0,
    prior,
  );
}

export async function getTrend(ctx: Ctx, months: number, endMonth?: string) {
  const end = endMonth ?? (await currentMonth(ctx)).month;
  const start = addMonths(end, -(months - 1));
  const rows = await byMonthCategory(getDb(ctx.env.DB), rangeBounds(start, end));
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
