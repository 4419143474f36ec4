/**
 * Merchant intelligence rules (pure, no I/O). Input: one merchant's monthly totals (integer cents)
 * and counts over the window, oldest first. Every amount here is cents; response.ts converts the
 * result to the API's decimal amounts.
 */
import {
  addCents,
  asCents,
  type Cents,
  roundCents,
  sumCents,
  withinCents,
  ZERO_CENTS,
  subCents,
} from "../../lib/money";

const FIXED_MIN_MONTHS = 3;
const CHURN_QUIET_MONTHS = 2;
const PRICE_CHANGE_MIN_PCT = 5;
const PRICE_CHANGE_MIN_CENTS = 100;
/** Amounts within this many cents are "the same amount". */
const SAME_AMOUNT_CENTS = asCents(1);

type FrequencyType = "fixed" | "variable" | "lumpy" | "none";

export interface MerchantSeries {
  company: string;
  category: string;
  /** Per window month, oldest first: the month's total (cents) and number of charges. */
  amounts: Cents[];
  counts: number[];
  /** Every charge in the window, oldest first: its day (days since 1970-01-01) and amount. */
  charges?: Charge[];
}

export interface Charge {
  day: number;
  cents: Cents;
}

/**
 * A recurring charge repeats at a regular cadence with a similar amount. Each cadence: its period
 * in days, how far one interval may stray from it, the fewest charges that show it, and how many
 * occurrences fall in an average month (for the monthly burn rate).
 */
const CADENCES = [
  { name: "weekly", days: 7, slack: 1, min: 4, perMonth: 52 / 12 },
  { name: "every two weeks", days: 14, slack: 3, min: 3, perMonth: 26 / 12 },
  // Months run 28–31 days and a bill may move a few days around a weekend.
  { name: "monthly", days: 30.44, slack: 6, min: 3, perMonth: 1 },
  { name: "quarterly", days: 91.3, slack: 10, min: 3, perMonth: 1 / 3 },
  { name: "yearly", days: 365.25, slack: 15, min: 2, perMonth: 1 / 12 },
] as const;
type Cadence = (typeof CADENCES)[number]["name"];
/** Share of intervals that must keep the cadence, and of charges that must be near the usual amount. */
const CADENCE_KEPT = 0.75;
/** "Similar amounts": within 25% of the usual charge (a price change stays recurring). */
const SIMILAR_AMOUNT_PCT = 25;

/**
 * The most distinct charge days a merchant can have in a window of `months` and still keep a
 * cadence: three quarters of its gaps must each be at least the densest cadence's period less its
 * slack (6 days), and together they fit in the window. A merchant charged on more days keeps none,
 * so its charges need not be read (at a large journal they would pass D1's 2 MB value cap).
 */
export function cadenceDayCap(months: number): number {
  const shortest = Math.min(...CADENCES.map((c) => c.days - c.slack));
  return Math.floor((months * 31) / (CADENCE_KEPT * shortest)) + 2;
}

const median = (xs: number[]) => {
  const v = [...xs].sort((a, b) => a - b);
  const mid = v.length >> 1;
  return v.length % 2 ? v[mid]! : Math.round((v[mid - 1]! + v[mid]!) / 2);
};

/**
 * The cadence a merchant's charges keep, and its usual charge (the median of the latest three:
 * after a price change, the new price), when at least three quarters of the intervals between
 * charges match one cadence within its slack, three quarters of the amounts are within 25% of the
 * usual charge, and the latest charge is not overdue by more than half a period as of `asOfDay`.
 * A grocery store or an ATM (frequent, irregular) keeps none. Charges on the same day count once.
 */
export function cadenceOf(charges: Charge[], asOfDay?: number): { cadence: Cadence; usual: Cents } | null {
  const byDay = new Map<number, Cents>();
  for (const c of charges) byDay.set(c.day, addCents(byDay.get(c.day) ?? ZERO_CENTS, c.cents));
  const days = [...byDay.keys()].sort((a, b) => a - b);
  if (days.length < 2) return null;
  const gaps = days.slice(1).map((d, i) => d - days[i]!);
  const amounts = days.map((d) => byDay.get(d)!);
  const usual = roundCents(median(amounts.slice(-3)));
  const similar = amounts.filter(
    (a) => Math.abs(a - usual) * 100 <= SIMILAR_AMOUNT_PCT * Math.abs(usual),
  ).length;
  if (similar < CADENCE_KEPT * amounts.length) return null;
  for (const c of CADENCES) {
    if (days.length < c.min) continue;
    const kept = gaps.filter((g) => Math.abs(g - c.days) <= c.slack).length;
    if (kept < CADENCE_KEPT * gaps.length) continue;
    if (asOfDay !== undefined && asOfDay - days.at(-1)! > c.days * 1.5 + c.slack) return null;
    return { cadence: c.name, usual };
  }
  return null;
}

/** What a cadence costs in an average month, in cents. */
function monthlyEquivalent(cadence: Cadence, usual: Cents): Cents {
  const c = CADENCES.find((x) => x.name === cadence);
  return roundCents(c ? usual * c.perMonth : 0);
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
    const a = amounts[i] ?? ZERO_CENTS;
    const n = idx.filter((j) => same(a, amounts[j] ?? ZERO_CENTS)).length;
    if (!best || n >= best.months) best = { amount: a, months: n };
  }
  return best;
}

/**
 * fixed: the same amount (within 0.01) in at least 3 months, covering at least half the active months;
 * variable: charged in at least two thirds of the window's months (4 of 6); lumpy: charged in 2+
 * months without either pattern; none: one month only.
 */
export function classify(amounts: Cents[], counts: number[], windowMonths = counts.length): FrequencyType {
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
export function priceChange(months: string[], amounts: Cents[], counts: number[]): PriceChange | null {
  const idx = activeIdx(counts);
  const last = idx.at(-1);
  if (last === undefined) return null;
  const latest = amounts[last] ?? ZERO_CENTS;
  let runStart = idx.length - 1;
  while (runStart > 0 && same(amounts[idx[runStart - 1]!] ?? ZERO_CENTS, latest)) runStart--;
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
export function isChurned(amounts: Cents[], counts: number[]): boolean {
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
  /** The regular cadence of its charges (null when it keeps none) and its usual charge. */
  cadence: Cadence | null;
  usual_charge: Cents | null;
  is_new: boolean;
  is_churned: boolean;
  price_change: PriceChange | null;
}

/**
 * One merchant's record. Recurring means its charges keep a regular cadence with similar amounts
 * (cadenceOf) and it has not churned; frequency_type keeps SPEC.md's month-pattern classes
 * (fixed, variable, lumpy, none), which describe how its monthly totals look, not a commitment.
 */
export function merchantRecord(s: MerchantSeries, months: string[], asOfDay?: number): MerchantRecord {
  const total = sumCents(s.amounts);
  const active = s.counts.filter((n) => n > 0).length;
  const frequency = classify(s.amounts, s.counts, months.length);
  const churned = isChurned(s.amounts, s.counts);
  const cad = churned ? null : cadenceOf(s.charges ?? [], asOfDay);
  const recurring = cad !== null;
  return {
    company: s.company,
    total,
    monthly_amounts: s.amounts,
    monthly_counts: s.counts,
    months_active: active,
    avg_amount: roundCents(active ? total / active : 0),
    frequency_type: frequency,
    category: s.category,
    is_recurring: recurring,
    cadence: cad?.cadence ?? null,
    usual_charge: cad?.usual ?? null,
    is_new: isNew(s.counts),
    is_churned: churned,
    price_change: cad?.cadence === "monthly" ? priceChange(months, s.amounts, s.counts) : null,
  };
}

/** What a recurring merchant commits per month: its usual charge times its occurrences a month. */
function committedAmount(r: MerchantRecord): Cents {
  if (!r.is_recurring || !r.cadence || r.usual_charge === null) return ZERO_CENTS;
  return monthlyEquivalent(r.cadence, r.usual_charge);
}

/**
 * Records (largest total first) and the roll-up; discretionary = latest month's spend − burn,
 * floored at 0. `asOfDay`: the day the window is seen from (its last day, or today within it).
 */
export function analyze(
  series: MerchantSeries[],
  months: string[],
  latestMonthTotal: Cents,
  asOfDay?: number,
) {
  const rows = series.map((s) => ({ s, r: merchantRecord(s, months, asOfDay) }));
  rows.sort((a, b) => b.r.total - a.r.total || a.r.company.localeCompare(b.r.company));
  const burn = sumCents(rows.map(({ r }) => committedAmount(r)));
  const merchants = rows.map(({ r }) => r);
  return {
    merchants,
    summary: {
      recurring_burn_rate: burn,
      recurring_count: merchants.filter((r) => r.is_recurring).length,
      discretionary_this_month: latestMonthTotal > burn ? subCents(latestMonthTotal, burn) : ZERO_CENTS,
      new_merchants: merchants.filter((r) => r.is_new).map((r) => r.company),
      churned_merchants: merchants.filter((r) => r.is_churned).map((r) => r.company),
      price_changes: merchants.flatMap((r) =>
        r.price_change ? [{ merchant: r.company, ...r.price_change }] : [],
      ),
    },
  };
}
