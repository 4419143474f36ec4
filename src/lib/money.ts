/** Money helpers: amounts are compared and rounded in integer cents, never with float equality. */
export const SPENDING_TYPES = ["purchase", "withdrawal", "preauth"] as const;
export const DEPOSIT_TYPES = ["e-transfer", "deposit"] as const;

/** SQL fragment: a row counts (not deleted, not ignored). */
export const LIVE = "DeletedAt IS NULL AND Ignored = 0";
export const SPENDING_SQL = `TransactionType IN (${SPENDING_TYPES.map((t) => `'${t}'`).join(", ")})`;
export const DEPOSIT_SQL = `TransactionType IN (${DEPOSIT_TYPES.map((t) => `'${t}'`).join(", ")})`;

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
