/** Monthly summary and spending trend. */
import type { ServiceCtx } from "../../lib/context";
import { daysInMonth, localToday } from "../../lib/local-time";
import { round2 } from "../../lib/money";
import { addMonths, monthBounds, rangeBounds } from "../../lib/month";
import { getConfig } from "../config/service";
import { byCategory, byCompany, byMonthCategory, commentedByCategory, rows, toDateByMonth } from "./queries";
import { anomalies, categoryDeltas, monthSummary, pace, pct } from "./rules";

type Ctx = Pick<ServiceCtx, "env" | "clock">;
const BASELINE_MONTHS = 6;

export async function currentMonth(ctx: Ctx): Promise<{ month: string; day: number; timezone: string }> {
  const { timezone } = await getConfig({ ctx });
  const t = localToday(ctx.clock(), timezone);
  return { month: t.month, day: t.day, timezone };
}

export async function getSummary(ctx: Ctx, month: string) {
  const db = ctx.env.DB;
  const prevMonth = addMonths(month, -1);
  const cur = monthBounds(month);
  const prev = monthBounds(prevMonth);
  const prior = rangeBounds(addMonths(month, -BASELINE_MONTHS), prevMonth);
  const today = await currentMonth(ctx);
  const isCurrent = today.month === month;
  const [cCat, cCo, cDep, pCat, pCo, pDep, history, commented, toDate] = await db.batch<
    Record<string, unknown>
  >([
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
  const current = monthSummary(month, rows(cCat), rows(cCo), rows(cDep));
  const previous = monthSummary(prevMonth, rows(pCat), rows(pCo), rows(pDep));
  const priorMonths = Array.from({ length: BASELINE_MONTHS }, (_, i) =>
    addMonths(month, -BASELINE_MONTHS + i),
  );
  const histRows = (history?.results ?? []) as { month: string; key: string; amount: number }[];
  const perMonth = priorMonths.map((m) =>
    Object.fromEntries(
      histRows.filter((r) => r.month.replace(".", "-") === m).map((r) => [r.key, Number(r.amount)]),
    ),
  );
  const delta = round2(current.total_spending - previous.total_spending);
  return {
    month,
    total_spent: current.total_spending,
    deposits_by_company: current.deposits_by_company,
    current,
    previous,
    delta_amount: delta,
    delta_percent: pct(delta, previous.total_spending),
    category_deltas: categoryDeltas(current, previous),
    anomalies: anomalies(
      Object.fromEntries(Object.entries(current.by_category).map(([k, v]) => [k, v.amount])),
      perMonth,
      Object.fromEntries(rows(commented).map((r) => [r.key, r.amount])),
    ),
    pace: isCurrent
      ? paceBlock(month, today.day, (toDate?.results ?? []) as Record<string, unknown>[])
      : null,
  };
}

function paceBlock(month: string, day: number, toDate: Record<string, unknown>[]) {
  const get = (m: string) => toDate.find((r) => String(r.month).replace(".", "-") === m);
  const mtd = Number(get(month)?.to_date ?? 0);
  const prevMonth = addMonths(month, -1);
  const prior = Array.from({ length: BASELINE_MONTHS }, (_, i) => addMonths(month, -1 - i)).map((m) => ({
    toDate: Number(get(m)?.to_date ?? 0),
    total: Number(get(m)?.total ?? 0),
  }));
  return pace(day, daysInMonth(month), mtd, Number(get(prevMonth)?.to_date ?? 0), prior);
}

export async function getTrend(ctx: Ctx, months: number, endMonth?: string) {
  const end = endMonth ?? (await currentMonth(ctx)).month;
  const start = addMonths(end, -(months - 1));
  const res = await byMonthCategory(ctx.env.DB, rangeBounds(start, end)).all<{
    month: string;
    key: string;
    amount: number;
    n: number;
  }>();
  return {
    months: Array.from({ length: months }, (_, i) => addMonths(start, i)).map((m) => {
      const mine = res.results
        .filter((r) => r.month.replace(".", "-") === m)
        .sort((a, b) => b.amount - a.amount);
      return {
        year_month: m,
        total_spending: round2(mine.reduce((s, r) => s + r.amount, 0)),
        spending_count: mine.reduce((s, r) => s + r.n, 0),
        by_category: Object.fromEntries(mine.map((r) => [r.key, { amount: round2(r.amount), count: r.n }])),
      };
    }),
  };
}
