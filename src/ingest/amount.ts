/**
 * Money as Canadian English bank alerts print it: "$1,687.00", "$40", "$0.01", "$100".
 * Thousands separators must be well-formed (groups of three) so "$1,2345" is not read as 1.
 * The lookahead refuses to stop inside a longer number, so a match never silently truncates.
 */
import { type Cents, parseCents } from "../lib/money";

const NUMBER = String.raw`(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d{1,2})?(?!\d|,\d|\.\d)`;

/** Regex source for "$" plus an amount, capturing the number as the named group `amt`. */
export const MONEY = String.raw`\$\s?(?<amt>${NUMBER})`;

const WHOLE = new RegExp(String.raw`^\$?\s?(${NUMBER})(?:\s*\(?CAD\)?)?$`, "i");

/** Number text captured by MONEY (or bare) to exact integer cents; null when unusable. */
export function moneyCents(numberText: string | undefined | null): Cents | null {
  if (typeof numberText !== "string" || numberText === "") return null;
  const cents = parseCents(numberText);
  return cents !== null && Number.isSafeInteger(cents) && cents >= 0 ? cents : null;
}

/** Parses a standalone money string such as "$1,234.56" or "40 (CAD)" to cents; null unless the whole text is money. */
export function parseAmountCents(text: string): Cents | null {
  if (typeof text !== "string") return null;
  const m = WHOLE.exec(text.trim());
  return m ? moneyCents(m[1]) : null;
}
