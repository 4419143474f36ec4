/**
 * Money: every amount inside the journal is integer cents (`Cents`). The API, the data export and
 * the model speak SPEC.md's decimal amounts; this module is the one place that converts.
 *
 * Stable API (statement parsers, learned templates and alert readers call these; keep them):
 * - `readMoney(text, opts)` — printed amount → `{ ok, cents, rounded }` or `{ ok: false, reason, message }`.
 *   Reads any printed form: decimal comma or point; thousands marks `.` `,` `'` `’` and spaces
 *   (incl. NBSP U+00A0, narrow NBSP U+202F, thin space); a leading or trailing minus (also U+2212),
 *   a leading plus, parentheses, a `CR`/`DR` mark (DR negative), currency symbols or ISO codes
 *   before or after. Any number of decimals, rounded half-even to cents; `exact: true` refuses a
 *   non-zero sub-cent part instead. `decimal` fixes the decimal mark (from `detectNumberFormat`);
 *   without it a single `,` followed by exactly three digits is a thousands mark, else a decimal.
 *   Digits are read as text, never through a float.
 * - `parseMoney`, `detectNumberFormat`, `toCents`/`fromCents`, and `formatCents`/`plainCents`: the
 *   only cents → text in the code. Never float equality on money.
 */

declare const centsBrand: unique symbol;

/**
 * An integer number of cents, branded so a decimal amount (or any plain number) cannot be passed
 * where cents are expected. Made only by `toCents`, `readMoney`/`parseMoney`/`parseCents`,
 * `roundCents`, `sumCents`/`addCents`/`subCents`/`negCents`/`absCents`, `ZERO_CENTS`, and `asCents` at the storage/parse
 * boundary. Arithmetic on Cents gives a plain number: re-brand it with these helpers.
 */
export type Cents = number & { readonly [centsBrand]: true };

/**
 * Brands an integer already known to be cents. Only at the storage/parse boundary: an integer
 * read from D1, a stored JSON document or a validated request field that is in cents. Never on a
 * decimal amount (use `toCents`) nor on derived arithmetic (use `roundCents`/`addCents`/`subCents`).
 */
export const asCents = (n: number): Cents => n as Cents;

/**
 * Cents → decimal for response mappers whose internal object reuses the API schema's plain number
 * fields to carry cents (budget status, summary, income): the boundary where those cents leave.
 */
export const fromCentsField = (n: number): number => fromCents(asCents(n));

/** Nullable `fromCentsField`. */
export const fromCentsFieldOrNull = (n: number | null | undefined): number | null =>
  n === null || n === undefined ? null : fromCents(asCents(n));

/** T with every Cents field (deeply) turned into the API's decimal number: a response mapper's output. */
export type Decimals<T> = T extends Cents
  ? number
  : T extends readonly (infer U)[]
    ? Decimals<U>[]
    : T extends object
      ? { [K in keyof T]: Decimals<T[K]> }
      : T;

/** Zero cents (a fallback for a missing amount). */
export const ZERO_CENTS = 0 as Cents;

/** Decimal currency units → integer cents, rounding half away from zero (1.005 → 101). */
export function toCents(amount: number): Cents {
  if (!Number.isFinite(amount)) throw new RangeError(`not a finite amount: ${amount}`);
  // toPrecision(15) drops binary noise (1.005 * 100 = 100.49999999999999) before rounding.
  const scaled = Number.parseFloat((Math.abs(amount) * 100).toPrecision(15));
  const cents = Math.round(scaled);
  return asCents(amount < 0 ? -cents : cents);
}

/** Integer cents → the decimal JSON number the API speaks (12345 → 123.45). */
export function fromCents(cents: Cents): number {
  return Math.round(cents) / 100;
}

/** Nullable variant of fromCents for optional columns and aggregates. */
export function fromCentsOrNull(cents: Cents | null | undefined): number | null {
  return cents === null || cents === undefined ? null : fromCents(cents);
}

export type DecimalMark = "." | ",";

interface MoneyOptions {
  /** The decimal mark; the other of `.`/`,` is then a thousands mark. Omitted: decided per text. */
  decimal?: DecimalMark;
  /** Refuse (reason `sub_cent`) when digits past the cents are not all zero, instead of rounding. */
  exact?: boolean;
}

type MoneyReading =
  | { ok: true; cents: Cents /** true when a non-zero sub-cent part was rounded away */; rounded: boolean }
  | { ok: false; reason: "not_a_number" | "sub_cent" | "too_large"; message: string };

const SPACES = /[\s\u00a0\u202f\u2009\u2007]+/g;
// Currency symbols and letter codes printed before or after an amount ("US$", "CA$", "R$", "kr", "zł"…).
const CURRENCY_LEAD = /^(?:[A-Z]{3}|[A-Z]{1,2}\$|[$€£¥₹₩₽₺₪฿₫₴₦₱¢]|kr\.?|zł|Kč|Fr\.|Ft|Rs\.?|lei|din\.?)\s*/i;
const CURRENCY_TAIL =
  /\s*(?:[A-Z]{3}|[A-Z]{1,2}\$|[$€£¥₹₩₽₺₪฿₫₴₦₱¢]|kr\.?|zł|Kč|Fr\.?|Ft|Rs\.?|lei|din\.?)$/i;

interface Marks {
  body: string;
  negative: boolean;
}

/** Strips signs, brackets, CR/DR marks and currency around the digits; null when malformed. */
function stripMarks(text: string): Marks | null {
  let s = text
    .replace(SPACES, " ")
    .replace(/\u2212/g, "-")
    .trim();
  let negative = false;
  let open = false;
  let close = false;
  for (let guard = 0; guard < 8; guard++) {
    const before = s;
    if (s.startsWith("(")) [s, open] = [s.slice(1).trim(), true];
    if (s.endsWith(")")) [s, close] = [s.slice(0, -1).trim(), true];
    if (/^[-+]/.test(s)) [s, negative] = [s.slice(1).trim(), negative || s[0] === "-"];
    if (/\d\s*[-+]$/.test(s)) [s, negative] = [s.slice(0, -1).trim(), negative || s.endsWith("-")];
    const mark = /(?:^|[\d\s])(CR|DR)\.?$/i.exec(s);
    if (mark)
      [s, negative] = [s.slice(0, s.length - mark[0].length + 1).trim(), negative || /dr/i.test(mark[1]!)];
    s = s.replace(CURRENCY_LEAD, "").replace(CURRENCY_TAIL, "").trim();
    if (s === before) break;
  }
  if (open !== close) return null;
  return /^[\d.,' ’]*\d[\d.,' ’]*$/.test(s) ? { body: s, negative: negative || open } : null;
}

/** Which mark a number body itself proves decimal: "strong" evidence, a guess, or none. */
function bodyEvidence(body: string): { decimal: DecimalMark | null; strong: boolean } {
  const dots = body.split(".").length - 1;
  const commas = body.split(",").length - 1;
  if (dots && commas)
    return { decimal: body.lastIndexOf(".") > body.lastIndexOf(",") ? "." : ",", strong: true };
  if (dots + commas === 0) return { decimal: null, strong: false };
  const mark: DecimalMark = dots ? "." : ",";
  if (dots + commas > 1) return { decimal: mark === "." ? "," : ".", strong: true };
  // One mark: three digits after it is a thousands group as often as decimals ("1,234", "30.000").
  const after = body.length - body.indexOf(mark) - 1;
  const groupedBefore = /[ '’]/.test(body);
  if (after !== 3) return { decimal: mark, strong: true };
  return { decimal: groupedBefore ? mark : mark === "," ? "." : ".", strong: false };
}

const GROUPED = /^\d{1,3}(?:[.,' ’]\d{3})+$|^\d{1,2}(?:,\d{2})+,\d{3}$/;

/** Printed amount → cents (see the module comment for every form read). */
export function readMoney(text: string, opts: MoneyOptions = {}): MoneyReading {
  const bad = (): MoneyReading => ({
    ok: false,
    reason: "not_a_number",
    message: `"${text.slice(0, 40)}" is not an amount`,
  });
  const marks = stripMarks(text);
  if (!marks) return bad();
  const { body } = marks;
  const decimal = opts.decimal ?? bodyEvidence(body).decimal ?? ".";
  const at = body.lastIndexOf(decimal);
  let whole = at < 0 ? body : body.slice(0, at);
  const frac = at < 0 ? "" : body.slice(at + 1);
  if (!/^\d*$/.test(frac) || (whole === "" && frac === "")) return bad();
  // Thousands marks: any of . , ' ’ and spaces other than the decimal, in groups of three
  // (or the Indian 1,23,456 grouping).
  if (/[^\d]/.test(whole)) {
    if (whole.includes(decimal) || !GROUPED.test(whole)) return bad();
    if (new Set(whole.replace(/\d/g, "")).size > 1) return bad();
    whole = whole.replace(/\D/g, "");
  }
  const digits = (whole.replace(/^0+(?=\d)/, "") || "0") + (frac + "00").slice(0, 2);
  const rest = frac.slice(2);
  if (digits.length > 15)
    return { ok: false, reason: "too_large", message: `"${text.slice(0, 40)}" is too large` };
  let cents = Number(digits);
  const roundedAway = /[1-9]/.test(rest);
  if (roundedAway && opts.exact)
    return {
      ok: false,
      reason: "sub_cent",
      message: `"${text.slice(0, 40)}" has a part smaller than a cent`,
    };
  // Half-even: above half rounds up, exactly half rounds to the even cent.
  const half =
    rest === ""
      ? -1
      : rest[0]! > "5" || (rest[0] === "5" && /[1-9]/.test(rest.slice(1)))
        ? 1
        : rest[0] === "5"
          ? 0
          : -1;
  if (half === 1 || (half === 0 && cents % 2 === 1)) cents += 1;
  return { ok: true, cents: asCents(marks.negative && cents !== 0 ? -cents : cents), rounded: roundedAway };
}

/** `readMoney` as cents or null. */
export function parseMoney(text: string, opts: MoneyOptions = {}): Cents | null {
  const r = readMoney(text, opts);
  return r.ok ? r.cents : null;
}

/**
 * Parses a printed amount ("$1,234.56", "1234.56 CAD", "-12", "(45.00)") with a decimal point,
 * exactly: null when it is not one or holds a sub-cent part (alert and receipt amounts).
 */
export function parseCents(text: string): Cents | null {
  return parseMoney(text, { decimal: ".", exact: true });
}

export interface NumberFormat {
  decimal: DecimalMark;
  /** false when no value proved the mark (then "." is assumed). */
  decided: boolean;
}

/**
 * A column's decimal mark from all its values: a value with both marks, a mark repeated, or a mark
 * followed by other than three digits proves it; the majority of proofs wins, "." when none.
 */
export function detectNumberFormat(samples: Iterable<string>): NumberFormat {
  let point = 0;
  let comma = 0;
  for (const s of samples) {
    const m = s ? stripMarks(s) : null;
    if (!m) continue;
    const e = bodyEvidence(m.body);
    if (!e.strong) continue;
    if (e.decimal === ".") point++;
    else if (e.decimal === ",") comma++;
  }
  return { decimal: comma > point ? "," : ".", decided: comma !== point };
}

interface FormatOptions {
  decimal?: DecimalMark;
  /** Thousands mark ("," by default; "" for none). */
  group?: string;
}

/** Cents → "1,234.56" (no currency sign); negative amounts keep their sign. */
export function formatCents(cents: Cents, opts: FormatOptions = {}): string {
  const decimal = opts.decimal ?? ".";
  const group = opts.group ?? (decimal === "," ? "." : ",");
  const sign = cents < 0 ? "-" : "";
  const abs = Math.abs(Math.round(cents));
  const whole = String(Math.floor(abs / 100)).replace(/\B(?=(\d{3})+$)/g, group);
  return `${sign}${whole}${decimal}${String(abs % 100).padStart(2, "0")}`;
}

/** Cents → "1234.56": no thousands mark (CSV cells, hash inputs, messages in words). */
export const plainCents = (cents: Cents): string => formatCents(cents, { group: "" });

/** Sum of cents (integers add exactly). */
export function sumCents(values: Iterable<Cents>): Cents {
  let total = 0;
  for (const v of values) total += v;
  return asCents(total);
}

/** a + b in cents. */
export const addCents = (a: Cents, b: Cents): Cents => asCents(a + b);

/** a − b in cents. */
export const subCents = (a: Cents, b: Cents): Cents => asCents(a - b);

/** −a in cents. */
export const negCents = (a: Cents): Cents => asCents(-a);

/** |a| in cents. */
export const absCents = (a: Cents): Cents => asCents(Math.abs(a));

/** Rounds a derived cents value (a mean, a share, a forecast) back to whole cents. */
export const roundCents = (x: number): Cents => asCents(Math.round(x));

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
