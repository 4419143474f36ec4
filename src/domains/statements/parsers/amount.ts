/** Amounts as statements print them, read through the one money parser (src/lib/money.ts). Pure. */
import { type Cents, type DecimalMark, readMoney, absCents } from "../../../lib/money";

/** Looks like a printed amount: digits with one or two decimals, optional sign, marks and currency. */
const AMOUNT_SHAPE =
  /^[-+=(]?\s*[-+]?\s*(?:[A-Z]{3}\s?|[$€£])?\s*\d[\d.,' \u00a0’]*[.,]\d{1,2}\)?\s*(?:-|\+|CR|DR|OD|[A-Z]{3}|€|Euro)?$/i;

export const looksLikeAmount = (text: string): boolean => AMOUNT_SHAPE.test(text.trim());

/**
 * A printed amount → cents (src/lib/money.ts reads the number: decimal comma or point, thousands
 * marks of any kind), its sign (minus, brackets, trailing minus, DR, OD for overdrawn), the side a
 * CR or DR mark names, and whether its last decimal was cut off. `decimal` is the document's decimal mark when known.
 */
export function readAmount(
  text: string,
  decimal?: DecimalMark,
): { cents: Cents; negative: boolean; truncated: boolean; side?: "credit" | "debit" } | null {
  const t = text.trim();
  if (!AMOUNT_SHAPE.test(t)) return null;
  const od = /\s?OD$/i.test(t);
  const body = t
    .replace(/\s?OD$/i, "")
    .replace(/^=/, "")
    .replace(/\s*euro$/i, "");
  const r = readMoney(body, decimal ? { decimal } : {});
  if (!r.ok) return null;
  const frac = /[.,](\d{1,2})\)?\s*(?:[-+]|CR|DR|[A-Z]{3}|€)?$/i.exec(body)?.[1] ?? "";
  // A CR or DR mark names the side of the account (a card's payment is a credit), not a sign.
  const mark = /(CR|DR)\.?$/i.exec(body)?.[1]?.toUpperCase();
  const side = mark === "CR" ? "credit" : mark === "DR" ? "debit" : undefined;
  return {
    cents: absCents(r.cents),
    negative: r.cents < 0 || od,
    truncated: frac.length === 1,
    ...(side ? { side } : {}),
  };
}
