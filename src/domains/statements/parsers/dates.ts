/**
 * Dates as statements print them: a row date often lacks its year ("27Feb", "Feb 27", "02/27",
 * "19.01."), which comes from the statement period (a period may cross a year end). All-numeric
 * dates are read in ONE order per document (day-first or month-first), decided from every date the
 * document prints; month names are read in English, French, German, Spanish, Italian, Dutch and
 * Portuguese (and the other languages of file-dates.ts's month words). Pure.
 */
import { MONTH_OF, monthNumber as monthOf } from "./file-dates";

const MONTH_WORD = `(${[...MONTH_OF.keys()].sort((a, b) => b.length - a.length).join("|")})\\.?`;

export interface PartialDate {
  month: number;
  day: number;
  year: number | null;
}

/** How a document writes all-numeric dates: day-first (31/01), month-first (01/31), or not known. */
export type DateOrder = "dmy" | "mdy";

const DAYS_IN = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
const valid = (d: PartialDate): PartialDate | null =>
  d.month >= 1 && d.month <= 12 && d.day >= 1 && d.day <= DAYS_IN[d.month - 1]! ? d : null;

const fullYear = (y: string | undefined): number | null => {
  if (!y) return null;
  const n = Number(y);
  return y.length === 2 ? 2000 + n : n;
};

/** dd/mm, mm/dd (with - or /), dd.mm (dots: always day-first), optional year. */
const NUMERIC = /^(\d{1,2})([/.-])(\d{1,2})(?:\2(\d{2}|\d{4}))?\.?$/;

const ROW_PATTERNS: [RegExp, (m: RegExpExecArray) => PartialDate][] = [
  // 2025-02-27, 2025/02/27, 2025.02.27 (a time of day after it: "2025-06-17 10:48:41")
  [
    /^(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})(?:[ T]\d{1,2}:\d{2}(?::\d{2})?)?$/,
    (m) => ({ year: Number(m[1]), month: Number(m[2]), day: Number(m[3]) }),
  ],
  // 27Feb, 27 Feb, 27-Feb-2025, 27 February 2025, 27. Januar 2025, 1er juillet 2023, 3 de enero de 2025
  [
    new RegExp(
      `^(\\d{1,2})(?:er|\\.)?(?:\\s?de)?[\\s-]?${MONTH_WORD}(?:(?:\\s?de)?[\\s-,]+(\\d{2}|\\d{4}))?$`,
      "i",
    ),
    (m) => ({ day: Number(m[1]), month: monthOf(m[2]!), year: fullYear(m[3]) }),
  ],
  // Feb 27, Feb. 27, 2025, February 27 2025
  [
    new RegExp(`^${MONTH_WORD}[\\s-]?(\\d{1,2})(?:,?[\\s-]+(\\d{4}))?$`, "i"),
    (m) => ({ month: monthOf(m[1]!), day: Number(m[2]), year: fullYear(m[3]) }),
  ],
];

/** Which orders a numeric date allows (a first part above 12 is a day; dots are day-first). */
function numericOrders(m: RegExpExecArray): DateOrder[] {
  const a = Number(m[1]);
  const b = Number(m[3]);
  if (m[2] === ".") return ["dmy"];
  const out: DateOrder[] = [];
  if (b >= 1 && b <= 12 && a >= 1 && a <= 31) out.push("dmy");
  if (a >= 1 && a <= 12 && b >= 1 && b <= 31) out.push("mdy");
  return out;
}

/** A row date as printed, or null when the text is not a date. Numeric dates follow `order`. */
export function parseRowDate(text: string, order: DateOrder | null = null): PartialDate | null {
  const t = text.trim().replace(/\s+/g, " ");
  const n = NUMERIC.exec(t);
  if (n) {
    const allowed = numericOrders(n);
    const pick =
      order && allowed.includes(order)
        ? order
        : n[2] === "."
          ? "dmy"
          : allowed.includes("mdy")
            ? "mdy"
            : allowed[0];
    if (!pick) return null;
    const [a, b] = [Number(n[1]), Number(n[3])];
    const year = fullYear(n[4]);
    return valid(pick === "dmy" ? { day: a, month: b, year } : { month: a, day: b, year });
  }
  for (const [re, build] of ROW_PATTERNS) {
    const m = re.exec(t);
    if (m) return valid(build(m));
  }
  return null;
}

/**
 * The document's numeric date order, from every numeric date it prints: one that only reads
 * day-first (31/01, 13.02) settles it, likewise month-first (01/31); when both kinds appear the
 * majority wins; when none is decisive, the date words around (month names in a language that writes
 * day-first, "du … au", "vom … bis") or null (month-first is then the reading).
 */
export function dateOrderOf(strings: readonly string[], fullText = ""): DateOrder | null {
  let dmy = 0;
  let mdy = 0;
  for (const s of strings) {
    for (const tok of s.split(/\s+/)) {
      const m = NUMERIC.exec(tok) ?? /^(\d{1,2})([/.-])(\d{1,2})\2(\d{2}|\d{4})$/.exec(tok);
      if (!m) continue;
      const orders = numericOrders(m);
      if (orders.length === 1) orders[0] === "dmy" ? dmy++ : mdy++;
    }
  }
  if (dmy !== mdy) return dmy > mdy ? "dmy" : "mdy";
  if (/\b(du|vom|del|dal|van)\s+\d{1,2}[/.-]\d{1,2}/i.test(fullText)) return "dmy";
  return null;
}

export const isoDate = (y: number, m: number, d: number): string =>
  `${String(y).padStart(4, "0")}-${String(m).padStart(2, "0")}-${String(d).padStart(2, "0")}`;

export const dayNo = (iso: string): number => Date.parse(`${iso}T00:00:00Z`) / 86_400_000;
/** The ISO day `days` after `iso` (before it when negative). */
export const shiftDay = (iso: string, days: number) =>
  new Date((dayNo(iso) + days) * 86_400_000).toISOString().slice(0, 10);

/** Every date written in full (with its year) in the text, with where it stands. */
function fullDates(text: string, order: DateOrder | null): { at: number; end: number; iso: string }[] {
  const out: { at: number; end: number; iso: string }[] = [];
  const re = new RegExp(
    [
      "\\d{4}[-/.]\\d{1,2}[-/.]\\d{1,2}",
      "\\d{1,2}[/.-]\\d{1,2}[/.-](?:\\d{4}|\\d{2})(?![\\d/.-]*\\d)",
      `\\d{1,2}(?:er|\\.)?(?:\\s?de)?\\s?${MONTH_WORD}(?:\\s?de)?,?\\s\\d{4}`,
      `${MONTH_WORD}\\s\\d{1,2},?\\s\\d{4}`,
    ].join("|"),
    "gi",
  );
  for (const m of text.matchAll(re)) {
    const d = parseRowDate(m[0].replace(",", ""), order);
    if (d?.year) out.push({ at: m.index, end: m.index + m[0].length, iso: isoDate(d.year, d.month, d.day) });
  }
  return out;
}

/** A yearless date ("February 24", "24 Feb") just before a full one: "Feb 24 to Mar 24, 2025". */
const YEARLESS = new RegExp(`(?:${MONTH_WORD}\\s\\d{1,2}|\\d{1,2}\\s${MONTH_WORD})\\s*$`, "i");
/** What joins the two dates of a period, in the languages above. */
const JOIN = /^\s*(?:[-–—]|to|through|thru|until|till|au|bis|al|a|hasta|fino al|tot|t\/m|à|to date:?)\s*$/i;
const PERIOD_WORD =
  /(statement\s+period|period|periode|période|zeitraum|periodo|período|from|du|vom|del|dal|van|de|for the period|statement dates?|kontoauszug)/i;

/**
 * The statement period: two full dates joined by a range word ("01-07-2023 to 31-07-2023",
 * "du 01/07/2023 au 31/07/2023", "vom 01.01.2020 bis 02.02.2020"), or labelled ("From Date:
 * 01/07/2023 … To Date: 31/07/2023"), the end 1-400 days after the start; a period word nearby wins
 * over a bare pair. A yearless start takes the end's year (or the year before).
 */
export function findPeriod(
  text: string,
  order: DateOrder | null = null,
): { start: string; end: string } | null {
  const t = text.replace(/\s+/g, " ");
  const dates = fullDates(t, order);
  let best: { start: string; end: string; score: number } | null = null;
  for (let i = 0; i < dates.length; i++) {
    for (let j = i + 1; j < Math.min(dates.length, i + 4); j++) {
      const a = dates[i]!;
      const b = dates[j]!;
      const span = dayNo(b.iso) - dayNo(a.iso);
      if (span < 1 || span > 400) continue;
      const between = t.slice(a.end, b.at);
      const labelled =
        /^\s*(?:to\s*date|end\s*date|bis|au|à|hasta|al)\s*:?\s*$/i.test(between) ||
        (/^[^\d]{0,30}$/.test(between) && /(to|end)\s*date\s*:?\s*$/i.test(between));
      if (!JOIN.test(between) && !labelled) continue;
      const before = t.slice(Math.max(0, a.at - 40), a.at);
      const score = (PERIOD_WORD.test(before) ? 2 : 0) + (j === i + 1 ? 1 : 0) - i / 1000;
      if (!best || score > best.score) best = { start: a.iso, end: b.iso, score };
    }
  }
  if (best) return { start: best.start, end: best.end };
  const labelled = labelledCycle(t, dates);
  if (labelled) return labelled;
  for (const b of dates) {
    const m = YEARLESS.exec(
      t.slice(Math.max(0, b.at - 40), b.at).replace(/\s*(?:to|-|–|—|through|thru)\s*$/i, ""),
    );
    const joined = /(?:to|-|–|—|through|thru)\s*$/i.test(t.slice(Math.max(0, b.at - 10), b.at));
    if (!m || !joined) continue;
    const start = parseRowDate(m[0].trim(), order);
    const end = parseRowDate(t.slice(b.at, b.end).replace(",", ""), order);
    if (!start || !end?.year) continue;
    const y = start.month > end.month ? end.year - 1 : end.year;
    return { start: isoDate(y, start.month, start.day), end: b.iso };
  }
  return null;
}

/** The label before the previous statement's date (a card's last cycle end). */
const PREVIOUS_LABEL =
  /((previous|last|prior)\s+statement(\s+date)?|relev[ée]\s+pr[ée]c[ée]dent|corte\s+anterior|vorheriger\s+auszug)\s*:?\s*$/i;
/** The label before this statement's (cycle end) date. */
const STATEMENT_LABEL =
  /(statement|closing|cycle)\s+date\s*:?\s*$|date\s+du\s+relev[ée]\s*:?\s*$|fecha\s+de\s+corte\s*:?\s*$/i;

/**
 * A cycle given as two labelled dates, not as a range: "Statement date: August 15, 2014 …
 * Previous statement: July 14, 2014" is the period from the day after the previous statement to
 * the statement date.
 */
function labelledCycle(
  t: string,
  dates: { at: number; end: number; iso: string }[],
): { start: string; end: string } | null {
  const before = (d: { at: number }) => t.slice(Math.max(0, d.at - 40), d.at);
  const prev = dates.find((d) => PREVIOUS_LABEL.test(before(d)));
  const stmt = dates.find((d) => STATEMENT_LABEL.test(before(d)) && !PREVIOUS_LABEL.test(before(d)));
  if (!prev || !stmt) return null;
  const span = dayNo(stmt.iso) - dayNo(prev.iso);
  if (span < 1 || span > 400) return null;
  return { start: shiftDay(prev.iso, 1), end: stmt.iso };
}

/** Every full date (ISO) the text prints, in order. */
export const printedDates = (text: string, order: DateOrder | null): string[] =>
  fullDates(text.replace(/\s+/g, " "), order).map((d) => d.iso);

/** The year a document's yearless rows most likely belong to, from the full dates it prints (its statement date). */
export function documentYear(text: string, order: DateOrder | null): number | null {
  const years = fullDates(text.replace(/\s+/g, " "), order).map((d) => Number(d.iso.slice(0, 4)));
  if (!years.length) return null;
  const counts = new Map<number, number>();
  for (const y of years) counts.set(y, (counts.get(y) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1] || b[0] - a[0])[0]![0];
}

/** The ISO date of a row: its own year, else the year that puts it nearest the period. */
export function resolveYear(
  d: PartialDate,
  period: { start: string; end: string } | null,
  fallbackYear: number,
): string {
  if (d.year) return isoDate(d.year, d.month, d.day);
  if (!period) return isoDate(fallbackYear, d.month, d.day);
  const lo = dayNo(period.start);
  const hi = dayNo(period.end);
  const startYear = Number(period.start.slice(0, 4));
  let best = isoDate(startYear, d.month, d.day);
  let bestGap = Number.POSITIVE_INFINITY;
  for (const y of [startYear - 1, startYear, startYear + 1, Number(period.end.slice(0, 4))]) {
    const n = dayNo(isoDate(y, d.month, d.day));
    const gap = n < lo ? lo - n : n > hi ? n - hi : 0;
    if (gap < bestGap) {
      bestGap = gap;
      best = isoDate(y, d.month, d.day);
    }
  }
  return best;
}
