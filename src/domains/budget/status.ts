/** The budget status verb: one D1 batch (the budget's items and the month aggregates, in cents), then pure assembly. */
import { getDb } from "../../db";
import type { ServiceCtx } from "../../lib/context";
import { localToday } from "../../lib/local-time";
import { roundCents, ZERO_CENTS, type Cents, addCents } from "../../lib/money";
import { addMonths, monthBounds, rangeBounds } from "../../lib/month";
import { getConfig } from "../config/service";
import { RECURRING_MIN_MONTHS } from "./forecast";
import {
  type Bounds,
  type MonthCategoryRow,
  chargesByCompany,
  monthlyByCategory,
  recurringCharges,
  totalsByCategory,
} from "./history-queries";
import { categoryKey, elapsedYearFraction } from "./rules";
import { readItems } from "./queries";
import { loadBudget } from "./service";
import {
  arrangeGroups,
  type CategoryFacts,
  categoryPace,
  overallPace,
  sum,
  type When,
  ytdOf,
} from "./status-rules";
import { statusOut } from "./status-response";
import type { BudgetStatusResponse, CategoryPaceDetail } from "./status-schemas";

const HISTORY_MONTHS = 6;

const monthIndex = (m: string) => Number(m.slice(5, 7)) - 1;

/** The one range covering two overlapping DateFileName ranges; null when they are apart. */
function overlapSpan(a: Bounds, b: Bounds): Bounds | null {
  if (!(a.lo < b.hi && b.lo < a.hi)) return null;
  return { lo: [a.lo, b.lo].sort()[0]!, hi: [a.hi, b.hi].sort()[1]! };
}

/** A range holding no row (lo = hi). */
const NO_MONTHS: Bounds = { lo: "", hi: "" };

/** A grouped row's month (`YYYY.MM`) lies in a range of whole months. */
const within = (month: string, b: Bounds) => `${month}.` >= b.lo && `${month}.` < b.hi;

/** Rows re-keyed by `key(row)` after `categoryKey`, rows meeting under one key merged. */
function foldKeyed<T extends { key: string }>(
  rows: readonly T[],
  key: (r: T) => string,
  merge: (a: T, b: T) => T,
): T[] {
  const out = new Map<string, T>();
  for (const r of rows) {
    const row = { ...r, key: categoryKey(r.key) };
    const k = key(row);
    const had = out.get(k);
    out.set(k, had ? merge(had, row) : row);
  }
  return [...out.values()];
}

const foldMonths = (rows: readonly MonthCategoryRow[]) =>
  foldKeyed(
    rows,
    (r) => `${r.month}|${r.key}`,
    (a, b) => ({
      ...a,
      total: addCents(a.total, b.total),
      n: a.n + b.n,
      to_date: addCents(a.to_date, b.to_date),
    }),
  );

/** Pace of `year` (as of today in the configured zone) against its targets, groups and ceiling. */
export async function getBudgetStatus(
  ctx: ServiceCtx,
  { year, compareYear }: { year: number; compareYear?: number | null },
): Promise<BudgetStatusResponse> {
  const cfg = await getConfig(ctx);
  const today = localToday(ctx.clock(), cfg.timezone);
  const curYear = Number(today.month.slice(0, 4));
  const asOf = today.date;
  const isCurrent = year === curYear;
  const w: When = {
    year,
    fraction: elapsedYearFraction(year, asOf),
    isCurrent,
    monthIndex: monthIndex(today.month),
    monthsElapsed: isCurrent ? monthIndex(today.month) + 1 : year < curYear ? 12 : 0,
    day: today.day,
    daysInMonth: today.daysInMonth,
  };
  const cmp = compareYear ?? year - 1;
  // History: the 6 months before the current month (for a past year, its last 6 months).
  const ref = year < curYear ? `${year + 1}-01` : today.month;
  const hist = rangeBounds(addMonths(ref, -HISTORY_MONTHS), addMonths(ref, -1));
  const db = getDb(ctx.env.DB);
  const yearRange = rangeBounds(`${year}-01`, `${year}-12`);
  // When the history overlaps the year (a past year, or the current year after June), ONE scan of
  // both ranges gives the year's months and the history's (the year's rows ignore to_date).
  const span = overlapSpan(yearRange, hist);
  // The budget's items ride in the same batch: one D1 round trip for the whole status.
  const results = await db.batch([
    readItems(db, cfg.user_id, year),
    monthlyByCategory(db, span ?? yearRange, today.day),
    totalsByCategory(db, rangeBounds(`${cmp}-01`, `${cmp}-12`)),
    // Recurring charges and this month's arrivals feed only the current year's forecasts: for
    // another year they scan an empty range (no row read, the batch's shape unchanged).
    recurringCharges(db, isCurrent ? hist : NO_MONTHS, RECURRING_MIN_MONTHS),
    chargesByCompany(db, isCurrent ? monthBounds(today.month) : NO_MONTHS),
    ...(span ? [] : [monthlyByCategory(db, hist, today.day)]),
  ]);
  const [items, rawMonths, rawCmp, rawRecurring, rawArrived, rawHist] = results;
  // The SQL keys fold ASCII case only: every key becomes the category's identity, groups that
  // meet under it summed, so a target finds its category however the rows spell it.
  const monthRows = foldMonths(rawMonths);
  const histOnly = rawHist ? foldMonths(rawHist) : undefined;
  const cmpRows = foldKeyed(
    rawCmp,
    (r) => r.key,
    (a, b) => ({ ...a, total: addCents(a.total, b.total) }),
  );
  const recurring = rawRecurring.map((r) => ({ ...r, key: categoryKey(r.key) }));
  const arrivedRows = rawArrived.map((r) => ({ ...r, key: categoryKey(r.key) }));
  const budget = await loadBudget(ctx, { userId: cfg.user_id, year, read: Promise.resolve(items) });
  const yearRows = span ? monthRows.filter((r) => within(r.month, yearRange)) : monthRows;
  const histRows = span ? monthRows.filter((r) => within(r.month, hist)) : (histOnly ?? []);
  const arrived = new Set(arrivedRows.map((r) => `${r.key}|${r.company}|${r.amount}`));
  const histMonths = [...new Set(histRows.map((r) => r.month))].sort();
  const hasPrior = cmpRows.length > 0;

  const facts = (key: string): CategoryFacts => {
    const monthly = Array<Cents>(12).fill(ZERO_CENTS);
    const counts = Array<number>(12).fill(0);
    for (const r of yearRows) {
      if (r.key !== key) continue;
      monthly[monthIndex(r.month)] = r.total;
      counts[monthIndex(r.month)] = r.n;
    }
    const history = histMonths.map((m) => {
      const r = histRows.find((h) => h.month === m && h.key === key);
      return { total: r?.total ?? ZERO_CENTS, toDate: r?.to_date ?? ZERO_CENTS };
    });
    const charges = recurring
      .filter((r) => r.key === key)
      .map((r) => ({ amount: r.amount, arrived: arrived.has(`${key}|${r.company}|${r.amount}`) }));
    const prior = hasPrior ? (cmpRows.find((r) => r.key === key)?.total ?? ZERO_CENTS) : null;
    return { monthly, counts, prior, history, recurring: charges };
  };

  const details = new Map<string, CategoryPaceDetail>();
  for (const [key, c] of Object.entries(budget.targets.categories))
    details.set(key, categoryPace(key, c, facts(key), w));

  const monthlyTotals = Array<Cents>(12).fill(ZERO_CENTS);
  for (const r of yearRows) {
    const i = monthIndex(r.month);
    monthlyTotals[i] = addCents(monthlyTotals[i]!, r.total);
  }
  const unbudgeted = [...new Set(yearRows.map((r) => r.key))]
    .filter((k) => !details.has(k))
    .map((k) => {
      const f = facts(k);
      return {
        category: k,
        ytd_spent: ytdOf(f.monthly, w),
        monthly_avg_historical: histMonths.length
          ? roundCents(sum(f.history.map((h) => h.total)) / histMonths.length)
          : 0,
        current_month_spent: w.isCurrent ? (f.monthly[w.monthIndex] ?? 0) : 0,
      };
    })
    .filter((u) => u.ytd_spent > 0)
    .sort((a, b) => b.ytd_spent - a.ytd_spent || a.category.localeCompare(b.category));

  return statusOut({
    year,
    as_of: asOf,
    elapsed_year_fraction: Math.round(w.fraction * 10_000) / 10_000,
    overall: overallPace(budget.targets.spending_ceiling, ytdOf(monthlyTotals, w), [...details.values()], w),
    groups: arrangeGroups(budget.groups.groups, details, w, hasPrior),
    unbudgeted,
    monthly_totals: monthlyTotals,
    prior_year_total: hasPrior ? sum(cmpRows.map((r) => r.total)) : null,
    compare_year: hasPrior ? cmp : null,
  });
}
