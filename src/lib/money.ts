/**
 * Money: every amount inside the journal is integer cents (`Cents`). The API, the data export and
 * the model speak SPEC.md's decimal amounts; this module is the one place that converts. Amounts
 * are compared in cents, never with float equality.
 */

/** An integer number of cents. */
export type Cents = number;

/** Decimal currency units → integer cents, rounding half away from zero (1.005 → 101). */
export function toCents(amount: number): Cents {
  if (!Number.isFinite(amount)) throw new RangeError(`not a finite amount: ${amount}`);
  // toPrecision(15) drops binary noise (1.005 * 100 = 100.49999999999999) before rounding.
  const scaled = Number.parseFloat((Math.abs(amount) * 100).toPrecision(15));
  const cents = Math.round(scaled);
  return amount < 0 ? -cents : cents;
}

/** Integer cents → the decimal JSON number the API speaks (12345 → 123.45). */
export function fromCents(cents: Cents): number {
  return Math.round(cents) / 100;
}

/** Nullable variant of fromCents for optional columns and aggregates. */
export function fromCentsOrNull(cents: Cents | null | undefined): number | null {
  return cents === null || cents === undefined ? null : fromCents(cents);
}

/**
 * Parses a printed amount ("$1,234.56", "1234.56 CAD", "-12", "(45.00)") into cents, exactly (from
 * the digits, never through a float). Returns null when the text holds no amount.
 */
export function parseCents(text: string): Cents | null {
  const t = text.trim();
  const m =
    /^(\()?\s*([-+])?\s*(?:[A-Z]{3}\s*)?\$?\s*([0-9]{1,3}(?:,[0-9]{3})+|[0-9]+)(?:\.([0-9]{1,2}))?\s*(?:[A-Z]{3})?\s*(\))?$/.exec(
      t,
    );
  if (!m) return null;
  const whole = Number.parseInt(m[3]!.replaceAll(",", ""), 10);
  const frac = m[4] ? Number.parseInt(m[4].padEnd(2, "0"), 10) : 0;
  const cents = whole * 100 + frac;
  const negative = m[2] === "-" || (m[1] === "(" && m[5] === ")");
  return negative ? -cents : cents;
}

/** "1,234.56" (no currency sign); negative amounts keep their sign. */
export function formatCents(cents: Cents): string {
  const sign = cents < 0 ? "-" : "";
  const abs = Math.abs(Math.round(cents));
  const whole = Math.floor(abs / 100).toLocaleString("en-US");
  return `${sign}${whole}.${String(abs % 100).padStart(2, "0")}`;
}

/** Sum of cents (integers add exactly). */
export function sumCents(values: Iterable<Cents>): Cents {
  let total = 0;
  for (const v of values) total += v;
  return total;
}

/** Rounds a derived cents value (a mean, a share, a forecast) back to whole cents. */
export const roundCents = (x: number): Cents => Math.round(x);

/** True when two amounts are within `tolerance` cents of each other (|a − b| ≤ tolerance). */
export const withinCents = (a: Cents, b: Cents, tolerance: Cents): boolean => Math.abs(a - b) <= tolerance;

/** Decimal rounding for non-money ratios (percentages, fractions) shown with two decimals. */
export const round2 = (x: number): number => Math.round((x + Number.EPSILON) * 100) / 100;

/** Percentile (0-100) by linear interpolation; null for an empty list. */
export function percentile(values: readonly number[], p: number): number | null {
  if (values.length === 0) return null;
  const s = [...values].sort((a, b) => a - b);
  const idx = ((s.length - 1) * p) / 100;
  const lo = Math.floor(idx);
  const hi = Math.ceil(idx);
  return s[lo]! + (s[hi]! - s[lo]!) * (idx - lo);
}

export {
  DEPOSIT_TYPES,
  SPENDING_TYPES,
  TRANSACTION_TYPES,
} from "./transaction-types";
