/**
 * Two parts of the insights context read straight from the rows: merchants of this month that
 * the person usually marks ignored (`suspected_ignored`), and last year's comments on the same
 * month (`same_month_last_year.comments`). Amounts are decimal here (the model's boundary).
 */
import { normalizeMerchant } from "../../categorize/normalize";
import type { Db } from "../../db";
import { fromCents, ZERO_CENTS } from "../../lib/money";
import { addMonths, monthBounds } from "../../lib/month";
import { commentedRows, merchantIgnoreHabit } from "./queries";

/** Months of history a habit of ignoring is read from. */
const IGNORE_HISTORY_MONTHS = 12;
/** At least this many earlier rows, and at least this share of them ignored. */
const IGNORE_MIN_ROWS = 2;
const IGNORE_MIN_SHARE = 0.5;

/** Merchants charging this month (rows not ignored) whose earlier rows were mostly ignored. */
export async function suspectedIgnored(db: Db, month: string) {
  const cur = monthBounds(month);
  const hist = { lo: monthBounds(addMonths(month, -IGNORE_HISTORY_MONTHS)).lo, hi: cur.lo };
  const [now, before] = await db.batch(merchantIgnoreHabit(db, cur, hist));
  // Merchants are compared by their normalized name: "NETFLIX.COM 8844" resembles "Netflix.com".
  const habit = new Map<string, { n: number; ignored: number }>();
  for (const r of before) {
    const key = normalizeMerchant(r.company);
    if (!key) continue;
    const h = habit.get(key) ?? { n: 0, ignored: 0 };
    h.n += r.n;
    h.ignored += r.ignored;
    habit.set(key, h);
  }
  return now
    .flatMap((r) => {
      const h = habit.get(normalizeMerchant(r.company));
      if (!h || h.n < IGNORE_MIN_ROWS || h.ignored / h.n < IGNORE_MIN_SHARE) return [];
      return [
        {
          company: r.company ?? "",
          amount: fromCents(r.cents),
          count: r.n,
          historical_ignored_share: Math.round((h.ignored / h.n) * 100) / 100,
        },
      ];
    })
    .sort((a, b) => b.amount - a.amount);
}

/** Last year's comments on the same month's live spending, oldest first (at most 50), decimal amounts. */
export async function lastYearComments(db: Db, month: string) {
  const b = monthBounds(addMonths(month, -12));
  return (await commentedRows(db, b.lo, b.hi, true)).map((r) => ({
    date: r.date.slice(0, 10).replace(/\./g, "-"),
    company: r.company ?? "",
    amount: fromCents(r.amount ?? ZERO_CENTS),
    category: r.category ?? "",
    comment: r.comment ?? "",
  }));
}
