import { getDb } from "../../db";
import type { ServiceCtx } from "../../lib/context";
import { fromCents, ZERO_CENTS } from "../../lib/money";
import { addMonths, monthBounds } from "../../lib/month";
import { getHistoricalAverages } from "../budget/averages";
import { getBudgetStatus } from "../budget/status";
import { getConfig } from "../config/service";
import { getMerchantIntelligence } from "../merchants/service";
import { currentMonth, getSummary, trendOf } from "../summary/service";
import { paceBlock } from "./pace";
import { commentedRows, largestSpending, previousBriefing } from "./queries";
import { fixedChargesOf, recurringAnnualOf } from "./rules";
import { lastYearComments, suspectedIgnored } from "./signals";

const EXCERPT_CHARS = 600;

const daysInMonth = (month: string) =>
  new Date(Date.UTC(Number(month.slice(0, 4)), Number(month.slice(5, 7)), 0)).getUTCDate();

/** A read that fails (an empty budget, a missing cache table) leaves its slot empty, not the page. */
async function orNull<T>(p: Promise<T>): Promise<T | null> {
  try {
    return await p;
  } catch {
    return null;
  }
}

export async function buildContext(ctx: ServiceCtx, monthIn?: string) {
  const today = await currentMonth(ctx);
  const month = monthIn ?? today.month;
  const cfg = await getConfig(ctx);
  const db = getDb(ctx.env.DB);
  const b = monthBounds(month);
  const year = Number(month.slice(0, 4));
  // Independent reads, side by side: the panel waits for the slowest, not for their sum.
  const [
    summary,
    budget,
    merchants,
    avg,
    trend,
    lastYear,
    history,
    yearToMonth,
    commented,
    largest,
    previous,
    ignoredLike,
    lastYearNotes,
  ] = await Promise.all([
    getSummary(ctx, month),
    orNull(getBudgetStatus(ctx, { year })),
    orNull(getMerchantIntelligence(ctx, { month, months: 6 })),
    orNull(getHistoricalAverages(ctx, 6)),
    trendOf(db, 6, month),
    trendOf(db, 1, addMonths(month, -12)),
    trendOf(db, 24, addMonths(month, -1)),
    trendOf(db, Number(month.slice(5, 7)), month),
    commentedRows(db, b.lo, b.hi),
    largestSpending(db, b.lo, b.hi, 5),
    previousBriefing(db, cfg.user_id, month),
    suspectedIgnored(db, month),
    lastYearComments(db, month),
  ]);
  const txOut = (r: (typeof largest)[number]) => ({
    date: r.date.slice(0, 10).replace(/\./g, "-"),
    company: r.company ?? "",
    amount: fromCents(r.amount ?? ZERO_CENTS),
    category: r.category ?? "",
    comment: r.comment ?? null,
  });
  const ly = lastYear.months[0];
  const prev = previous[0];
  return {
    generated_at: ctx.clock().toISOString(),
    month,
    current_month: summary.current,
    previous_month: summary.previous,
    delta: {
      total_spending: summary.delta_amount,
      ...(summary.delta_percent === null ? {} : { total_spending_pct: summary.delta_percent }),
    },
    pace: paceBlock({
      month,
      spendingCeiling: budget?.overall.spending_ceiling ?? 0,
      targets: (budget?.groups ?? []).flatMap((g) => g.categories),
      months: yearToMonth.months,
      today: month === today.month ? { day: today.day, daysInMonth: daysInMonth(month) } : null,
    }),
    trend: trend.months,
    same_month_last_year:
      ly && ly.spending_count > 0
        ? {
            year_month: ly.year_month,
            total_spending: ly.total_spending,
            spending_count: ly.spending_count,
            by_category: ly.by_category,
            comments: lastYearNotes,
          }
        : null,
    budget:
      budget && budget.overall.spending_ceiling > 0
        ? {
            year,
            as_of: budget.as_of,
            spending_ceiling: budget.overall.spending_ceiling,
            ytd_spent: budget.overall.ytd_spent,
            expected_pace: budget.overall.expected_pace,
            status: budget.overall.status,
            categories: budget.groups.flatMap((g) =>
              g.categories.map((c) => ({
                category: c.category,
                annual_target: c.target,
                monthly_amount: c.monthly_amount,
                ytd_spent: c.ytd_spent,
                status: c.status,
              })),
            ),
          }
        : null,
    historical_averages: avg ?? {},
    category_deltas: summary.category_deltas,
    anomalies: summary.anomalies,
    commented_transactions: commented.map(txOut),
    largest_transactions: largest.map(txOut),
    fixed_charges: merchants ? fixedChargesOf(merchants.merchants) : [],
    recurring_annual: recurringAnnualOf(history.months, month),
    suspected_ignored: ignoredLike,
    previous_briefing: prev
      ? { month: prev.month, generated_at: prev.generated_at, excerpt: prev.content.slice(0, EXCERPT_CHARS) }
      : null,
    user_memo: cfg.insights_user_memo ?? null,
  };
}

export type InsightsContext = Awaited<ReturnType<typeof buildContext>>;
