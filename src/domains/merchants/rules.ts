/**
 * Merchant intelligence rules (pure, no I/O). Input: one merchant's monthly totals (integer cents)
 * and counts over the window, oldest first. Every amount here is cents; response.ts converts the
 * result to the API's decimal amounts.
 */
import { type Cents, roundCents, withinCents } from "../../lib/money";

export const FIXED_MIN_MONTHS = 3;
export const CHURN_QUIET_MONTHS = 2;
export const PRICE_CHANGE_MIN_PCT = 5;
export const PRICE_CHANGE_MIN_CENTS = 100;
/** Amounts within this many cents are "the same amount". */
export const SAME_AMOUNT_CENTS = 1;

export type FrequencyType = "fixed" | "variable" | "lumpy" | "none";

export interface MerchantSeries {
  company: string;
  category: string;
  /** Per window month, oldest first: the month's total (cents) and number of charges. */
  amounts: Cents[];
  counts: number[];
}

export interface PriceChange {
  old_amount: Cents;
  new_amount: Cents;
  since_month: string;
}

const same = (a: Cents, b: Cents) => withinCents(a, b, SAME_AMOUNT_CENTS);
const activeIdx = (counts: number[]) => counts.flatMap((n, i) => (n > 0 ? [i] : []));

/** Active months needed for "variable" recurrence: two thirds of the window (4 of 6), never below 3. */
export function variableThreshold(windowMonths: number): number {
  return Math.max(FIXED_MIN_MONTHS, Math.ceil((2 * windowMonths) / 3));
}

/**
 * The largest group of the given months whose amounts agree within 0.01 (anchored on one month's
 * amount); ties go to the most recent anchor. Null when no months are given.
 */
export function commonAmount(amounts: Cents[], idx: number[]): { amount: Cents; months: number } | null {
  let best: { amount: Cents; months: number } | null = null;
  for (const i of idx) {
    const a = amounts[i] ?? 0;
    const n = idx.filter((j) => same(a, amounts[j] ?? 0)).length;
    if (!best || n >= best.months) best = { amount: a, months: n };
  }
  return best;
}

/**
 * fixed: the same amount (within 0.01) in at least 3 months, covering at least half the active months;
 * variable: charged in at least two thirds of the window's months (4 of 6); lumpy: charged in 2+
 * months without either pattern; none: one month only.
 */
export function classify(amounts: number[], counts: number[], windowMonths = counts.length): FrequencyType {
  const idx = activeIdx(counts);
  const common = commonAmount(amounts, idx);
  if (common && common.months >= FIXED_MIN_MONTHS && common.months * 2 >= idx.length) return "fixed";
  if (idx.length >= variableThreshold(windowMonths)) return "variable";
  return idx.length >= 2 ? "lumpy" : "none";
}

/** True when |new − old| is at least 5% of old and at least 1 currency unit (100 cents). */
export function isPriceAlert(oldAmount: Cents, newAmount: Cents): boolean {
  const diff = Math.abs(newAmount - oldAmount);
  return diff >= PRICE_CHANGE_MIN_CENTS && diff * 100 >= PRICE_CHANGE_MIN_PCT * Math.abs(oldAmount);
}

/**
 * The latest amount (the most recent active month, and the run of months before it charging the
 * same) against the baseline: the most common earlier amount, held in at least 2 months.
 */
export function priceChange(months: string[], amounts: number[], counts: number[]): PriceChange | null {
  const idx = activeIdx(counts);
  const last = idx.at(-1);
  if (last === undefined) return null;
  const latest = amounts[last] ?? 0;
  let runStart = idx.length - 1;
  while (runStart > 0 && same(amounts[idx[runStart - 1]!] ?? 0, latest)) runStart--;
  const base = commonAmount(amounts, idx.slice(0, runStart));
  if (!base || base.months < 2 || !isPriceAlert(base.amount, latest)) return null;
  return { old_amount: base.amount, new_amount: latest, since_month: months[idx[runStart]!]! };
}

/** First seen in the window's last month, never before within the window. */
export function isNew(counts: number[]): boolean {
  const idx = activeIdx(counts);
  return idx.length === 1 && idx[0] === counts.length - 1;
}

/** Regular (fixed or variable) over the months before the last 2, and absent in the last 2. */
export function isChurned(amounts: number[], counts: number[]): boolean {
  const before = counts.length - CHURN_QUIET_MONTHS;
  if (before < FIXED_MIN_MONTHS) return false;
  if (counts.slice(before).some((n) => n > 0)) return false;
  const kind = classify(amounts.slice(0, before), counts.slice(0, before), before);
  return kind === "fixed" || kind === "variable";
}

export interface MerchantRecord {
  company: string;
  total: Cents;
  monthly_amounts: Cents[];
  monthly_counts: number[];
  months_active: number;
  avg_amount: Cents;
  frequency_type: FrequencyType;
  category: string;
  is_recurring: boolean;
  is_new: boolean;
  is_churned: boolean;
  price_change: PriceChange | null;
}

/** One merchant's record; recurring means fixed or variable and not churned. */
export function merchantRecord(s: MerchantSeries, months: string[]): MerchantRecord {
  const total = s.amounts.reduce((a, b) => a + b, 0);
  const active = s.counts.filter((n) => n > 0).length;
  const frequency = classify(s.amounts, s.counts, months.length);
  const churned = isChurned(s.amounts, s.counts);
  const regular = frequency === "fixed" || frequency === "variable";
  return {
    company: s.company,
    total,
    monthly_amounts: s.amounts,
    monthly_counts: s.counts,
    months_active: active,
    avg_amount: active ? roundCents(total / active) : 0,
    frequency_type: frequency,
    category: s.category,
    is_recurring: regular && !churned,
    is_new: isNew(s.counts),
    is_churned: churned,
    price_change: regular ? priceChange(months, s.amounts, s.counts) : null,
  };
}

/**
 * What a recurring merchant commits per month: a fixed charge's amount (the new price after a
 * detected change), or a variable merchant's average over its active months.
 */
export function committedAmount(r: MerchantRecord, amounts: Cents[], counts: number[]): Cents {
  if (!r.is_recurring) return 0;
  if (r.frequency_type !== "fixed") return r.avg_amount;
  if (r.price_change) return r.price_change.new_amount;
  return commonAmount(amounts, activeIdx(counts))?.amount ?? 0;
}

/** Records (largest total first) and the roll-up; discretionary = latest month's spend − burn, floored at 0. */
export function analyze(series: MerchantSeries[], months: string[], latestMonthTotal: Cents) {
  const rows = series.map((s) => ({ s, r: merchantRecord(s, months) }));
  rows.sort((a, b) => b.r.total - a.r.total || a.r.company.localeCompare(b.r.company));
  const burn = rows.reduce((sum, { s, r }) => sum + committedAmount(r, s.amounts, s.counts), 0);
  const merchants = rows.map(({ r }) => r);
  return {
    merchants,
    summary: {
      recurring_burn_rate: burn,
      recurring_count: merchants.filter((r) => r.is_recurring).length,
      discretionary_this_month: Math.max(0, latestMonthTotal - burn),
      new_merchants: merchants.filter((r) => r.is_new).map((r) => r.company),
      churned_merchants: merchants.filter((r) => r.is_churned).map((r) => r.company),
      price_changes: merchants.flatMap((r) =>
        r.price_change ? [{ merchant: r.company, ...r.price_change }] : [],
      ),
    },
  };
}

/**
 * Series per merchant from the SQL aggregates: `monthly` rows (merchant, ym 'YYYY.MM', total, n) and
 * `names` rows (merchant, category, n, last_seen, company). The display name is the latest spelling;
 * the category is the most frequent one (ties: the most recently used).
 */
export function buildSeries(
  monthly: { merchant: string; ym: string; total: Cents; n: number }[],
  names: { merchant: string; category: string; n: number; last_seen: string; company: string }[],
  months: string[],
): MerchantSeries[] {
  const pos = new Map(months.map((m, i) => [m, i]));
  const out = new Map<string, MerchantSeries>();
  for (const row of monthly) {
    const i = pos.get(row.ym.replace(".", "-"));
    if (i === undefined) continue;
    let s = out.get(row.merchant);
    if (!s) {
      s = {
        company: row.merchant,
        category: "uncategorized",
        amounts: months.map(() => 0),
        counts: months.map(() => 0),
      };
      out.set(row.merchant, s);
    }
    s.amounts[i] = Number(row.total);
    s.counts[i] = Number(row.n);
  }
  const best = new Map<string, { cat: (typeof names)[number]; name: (typeof names)[number] }>();
  for (const row of names) {
    const b = best.get(row.merchant);
    if (!b) {
      best.set(row.merchant, { cat: row, name: row });
      continue;
    }
    if (row.n > b.cat.n || (row.n === b.cat.n && row.last_seen > b.cat.last_seen)) b.cat = row;
    if (row.last_seen > b.name.last_seen) b.name = row;
  }
  for (const [key, s] of out) {
    const b = best.get(key);
    if (b) {
      s.company = b.name.company;
      s.category = b.cat.category;
    }
  }
  return [...out.values()];
}
