/**
 * Money as Canadian English bank alerts print it: "$1,687.00", "$40", "$0.01", "$100".
 * Thousands separators must be well-formed (groups of three) so "$1,2345" is not read as 1.
 * The lookahead refuses to stop inside a longer number, so a match never silently truncates.
 */
const NUMBER = String.raw`(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d{1,2})?(?!\d|,\d|\.\d)`;

/** Regex source for "$" plus an amount, capturing the number as the named group `amt`. */
export const MONEY = String.raw`\$\s?(?<amt>${NUMBER})`;

const WHOLE = new RegExp(String.raw`^\$?\s?(${NUMBER})(?:\s*\(?CAD\)?)?$`, "i");

/** Number text captured by MONEY (or bare) to a finite, non-negative number; null when unusable. */
export function moneyValue(numberText: string | undefined | null): number | null {
  if (typeof numberText !== "string" || numberText === "") return null;
  const value = Number(numberText.replace(/,/g, ""));
  return Number.isFinite(value) && value >= 0 ? value : null;
}

/** Parses a standalone money string such as "$1,234.56" or "40 (CAD)"; null unless the whole text is money. */
export function parseAmount(text: string): number | null {
  if (typeof text !== "string") return null;
  const m = WHOLE.exec(text.trim());
  return m ? moneyValue(m[1]) : null;
}
