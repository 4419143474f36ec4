/**
 * Dates as statements print them: a row date often lacks its year ("27Feb", "Feb 27", "02/27"),
 * which comes from the statement period (a period may cross a year end). Pure.
 */

const MONTHS: Record<string, number> = {
  jan: 1,
  feb: 2,
  mar: 3,
  apr: 4,
  may: 5,
  jun: 6,
  jul: 7,
  aug: 8,
  sep: 9,
  sept: 9,
  oct: 10,
  nov: 11,
  dec: 12,
};
const MONTH_WORD =
  "(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\\.?";

export interface PartialDate {
  month: number;
  day: number;
  year: number | null;
}

const monthOf = (word: string): number =>
  MONTHS[
    word
      .toLowerCase()
      .replace(/\.$/, "")
      .slice(0, word.toLowerCase().startsWith("sept") ? 4 : 3)
  ] ?? 0;

const valid = (d: PartialDate): PartialDate | null =>
  d.month >= 1 && d.month <= 12 && d.day >= 1 && d.day <= 31 ? d : null;

const fullYear = (y: string | undefined): number | null => {
  if (!y) return null;
  const n = Number(y);
  return y.length === 2 ? 2000 + n : n;
};

const ROW_PATTERNS: [RegExp, (m: RegExpExecArray) => PartialDate][] = [
  // 2025-02-27, 2025/02/27
  [
    /^(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})$/,
    (m) => ({ year: Number(m[1]), month: Number(m[2]), day: Number(m[3]) }),
  ],
  // 27Feb, 27 Feb, 27-Feb-2025, 27 February 2025
  [
    new RegExp(`^(\\d{1,2})[\\s-]?${MONTH_WORD}(?:[\\s-,]+(\\d{2}|\\d{4}))?$`, "i"),
    (m) => ({ day: Number(m[1]), month: monthOf(m[2]!), year: fullYear(m[3]) }),
  ],
  // Feb 27, Feb. 27, 2025, February 27 2025
  [
    new RegExp(`^${MONTH_WORD}[\\s-]?(\\d{1,2})(?:,?[\\s-]+(\\d{4}))?$`, "i"),
    (m) => ({ month: monthOf(m[1]!), day: Number(m[2]), year: fullYear(m[3]) }),
  ],
  // 02/27, 02/27/2025, 27/02/2025 (a first part above 12 is the day)
  [
    /^(\d{1,2})[/-](\d{1,2})(?:[/-](\d{2}|\d{4}))?$/,
    (m) => {
      const a = Number(m[1]);
      const b = Number(m[2]);
      return a > 12 ? { day: a, month: b, year: fullYear(m[3]) } : { month: a, day: b, year: fullYear(m[3]) };
    },
  ],
];

/** A row date as printed, or null when the text is not a date. */
export function parseRowDate(text: string): PartialDate | null {
  const t = text.trim().replace(/\s+/g, " ");
  for (const [re, build] of ROW_PATTERNS) {
    const m = re.exec(t);
    if (m) return valid(build(m));
  }
  return null;
}

export const isoDate = (y: number, m: number, d: number): string =>
  `${String(y).padStart(4, "0")}-${String(m).padStart(2, "0")}-${String(d).padStart(2, "0")}`;

const MONTH_NC = MONTH_WORD.replace("(jan", "(?:jan");
const FULL_DATE = `(?:${MONTH_NC}\\s+\\d{1,2},?\\s+\\d{4}|\\d{1,2}\\s+${MONTH_NC},?\\s+\\d{4}|\\d{4}-\\d{2}-\\d{2})`;
const YEARLESS = `(?:${MONTH_NC}\\s+\\d{1,2}|\\d{1,2}\\s+${MONTH_NC})`;
const RANGE = new RegExp(`(${FULL_DATE}|${YEARLESS})\\s*(?:to|-|–|—|through|thru)\\s*(${FULL_DATE})`, "i");

/** The statement period ("From February 24, 2025 to March 24, 2025", "Feb 27 - Mar 30, 2025"). */
export function findPeriod(text: string): { start: string; end: string } | null {
  const m = RANGE.exec(text.replace(/\s+/g, " "));
  if (!m) return null;
  const end = parseRowDate(m[2]!.replace(",", ""));
  const start = parseRowDate(m[1]!.replace(",", ""));
  if (!end?.year || !start) return null;
  const startYear = start.year ?? (start.month > end.month ? end.year - 1 : end.year);
  return { start: isoDate(startYear, start.month, start.day), end: isoDate(end.year, end.month, end.day) };
}

const dayNumber = (iso: string): number => Date.parse(`${iso}T00:00:00Z`) / 86_400_000;

/** The ISO date of a row: its own year, else the year that puts it nearest the period. */
export function resolveYear(
  d: PartialDate,
  period: { start: string; end: string } | null,
  fallbackYear: number,
): string {
  if (d.year) return isoDate(d.year, d.month, d.day);
  if (!period) return isoDate(fallbackYear, d.month, d.day);
  const lo = dayNumber(period.start);
  const hi = dayNumber(period.end);
  const startYear = Number(period.start.slice(0, 4));
  let best = isoDate(startYear, d.month, d.day);
  let bestGap = Number.POSITIVE_INFINITY;
  for (const y of [startYear - 1, startYear, startYear + 1, Number(period.end.slice(0, 4))]) {
    const n = dayNumber(isoDate(y, d.month, d.day));
    const gap = n < lo ? lo - n : n > hi ? n - hi : 0;
    if (gap < bestGap) {
      bestGap = gap;
      best = isoDate(y, d.month, d.day);
    }
  }
  return best;
}
