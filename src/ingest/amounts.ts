/**
 * Amounts as alert emails print them, in any currency: an ISO 4217 code or a symbol before or
 * after the number, with or without brackets and a sign (`($USD) 12.47`, `SGD12.34`, `12,47 EUR`,
 * `Rs.711.00`, `2,760円`, `CHF 3’333.33`), the decimal mark a point or a comma, thousands marked by
 * `.` `,` `'` `’` or a space. Also a bare number right after an amount label ("Amount:", "Montant",
 * "Valor Transacción:", "金額"). Built from the ISO list (currencies.ts) and the number rules, not
 * from samples. Pure; linear in the text (one pass of a regex whose pieces are bounded).
 * The number itself is read by the one money parser (lib/money.ts `parseMoney`).
 */
import { type DecimalMark, parseMoney, type Cents } from "../lib/money";
import { escapeRe as esc } from "../domains/templates/engine/text";
import { currencyOfMark, MINOR_UNITS, SYMBOLS } from "./currencies";

export interface FoundAmount {
  /** The matched text, as printed. */
  text: string;
  /** The number as printed, without its currency mark. */
  number: string;
  /** ISO code when the mark names one; null for a bare `$` or `kr`, or a labelled number. */
  currency: string | null;
  /** The printed mark (`SGD`, `Rs.`, `$`), or null for a labelled number. */
  mark: string | null;
  /** The amount in hundredths of the major unit, or null when the number cannot be read. */
  cents: Cents | null;
  index: number;
}

const CODES = [...MINOR_UNITS.keys()].join("|");
const SYMS = SYMBOLS.map(([s]) => s)
  .sort((a, b) => b.length - a.length)
  .map(esc)
  .join("|");
// Grouped thousands first, then plain digits; a decimal part of one to four digits.
const NUM = String.raw`\d{1,3}(?:[.,'’\u00a0\u202f ]\d{3})+(?:[.,]\d{1,4})?|\d{1,15}(?:[.,]\d{1,4})?`;
const S = String.raw`[ \t\u00a0\u202f]?`;
const AMOUNT = new RegExp(
  String.raw`(?<![\p{L}\p{N}])\(?(?:(${SYMS})${S})?(?:(${CODES})${S})?\)?${S}(?:[-+−]${S})?(${NUM})` +
    String.raw`(?:${S}\(?(?:(${CODES})|(${SYMS}))\)?(?![\p{L}]))?`,
  "gu",
);
const LABELS = "amount|montant|monto|importe|valor|quantia|betrag|summe|total";
const LABELLED = new RegExp(
  String.raw`(?:\b(?:${LABELS})\b|金額|額)[^\d\n]{0,30}?(?<![\p{L}\p{N}])(${NUM})(?![\d])`,
  "giu",
);
const MAX_SCAN = 50_000;

/** Every currency-marked amount in the text, then every labelled bare number, in text order. */
export function findAmounts(text: string): FoundAmount[] {
  const hay = text.slice(0, MAX_SCAN);
  const found: FoundAmount[] = [];
  for (const m of hay.matchAll(AMOUNT)) {
    const [whole, preSym, preCode, num, sufCode, sufSym] = m;
    const marks = [preCode, sufCode, preSym, sufSym].filter((x): x is string => !!x);
    if (marks.length === 0) continue;
    const code = marks.map(currencyOfMark).find((c) => c !== null) ?? null;
    found.push({
      text: whole.trim(),
      number: num!,
      currency: code,
      mark: marks[0]!,
      cents: amountTextCents(num!, code),
      index: m.index,
    });
  }
  const taken = (i: number) => found.some((f) => i >= f.index && i < f.index + f.text.length + 2);
  for (const m of hay.matchAll(LABELLED)) {
    const num = m[1]!;
    const at = m.index + m[0].length - num.length;
    if (taken(at)) continue;
    found.push({
      text: num,
      number: num,
      currency: null,
      mark: null,
      cents: amountTextCents(num, null),
      index: at,
    });
  }
  return found.sort((a, b) => a.index - b.index);
}

/**
 * A printed number in hundredths of its major unit, read by the one money parser (lib/money.ts).
 * Only the decimal mark is decided here, from the number's own form and the currency: a lone `.`
 * or `,` followed by exactly three digits groups thousands (`$18.000`, `2,760円`), unless the
 * currency has three minor units (`KWD 1.250`). Null when unreadable.
 */
export function amountTextCents(num: string, currency: string | null): Cents | null {
  const minor = currency ? (MINOR_UNITS.get(currency) ?? 2) : 2;
  const marks = num.match(/[.,]/g) ?? [];
  let decimal: DecimalMark | undefined;
  if (marks.length === 1) {
    const mark = marks[0] as DecimalMark;
    const after = num.length - num.indexOf(mark) - 1;
    decimal = after === 3 && minor !== 3 ? (mark === "." ? "," : ".") : mark;
  }
  return parseMoney(num, decimal ? { decimal } : {});
}

/** The currency printed beside the amount worth `cents` in the text (first match), if any. */
export function currencyBeside(text: string, cents: Cents): FoundAmount | null {
  return findAmounts(text).find((a) => a.cents === Math.abs(cents) && a.mark !== null) ?? null;
}
