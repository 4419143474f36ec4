/**
 * The date line of a hand-forwarded block, as mail clients print it for people rather than as an
 * RFC 5322 header: "Tue, Oct 15, 2024 at 3:42 PM", "Tuesday, October 15, 2024 3:42 PM",
 * "15 October 2024 at 15:42:10 GMT-7", "Tue, 15 Oct 2024 15:42:10 -0700". Read by layout (a month
 * name or a numeric date, a year, a clock time, an optional zone), not by one client's template.
 * A date without a zone is wall time in the configured zone; a zone, when printed, wins.
 */
import { MONTHS, wallTimeIn, ZONE_ABBREVIATIONS } from "./dates";

const MONTH =
  /\b(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?(?![a-z])/i;
const CLOCK = /\b(\d{1,2}):(\d{2})(?::(\d{2}))?(?:\s*([ap])\.?\s?m\b\.?)?/i;

/** A printed zone after the clock time, in minutes east of UTC; undefined when none is printed. */
function zoneOffset(rest: string): number | undefined {
  const named = /\b(?:GMT|UTC|UT)\s*([-+\u2212])\s*(\d{1,2})(?::?(\d{2}))?\b/i.exec(rest);
  const numeric = named ?? /(?:^|\s)([-+\u2212])(\d{2}):?(\d{2})\b/.exec(rest);
  if (numeric) {
    const sign = numeric[1] === "+" ? 1 : -1;
    const minutes = Number(numeric[2]) * 60 + Number(numeric[3] ?? 0);
    return minutes <= 14 * 60 ? sign * minutes : undefined;
  }
  for (const m of rest.matchAll(/\b([A-Z]{1,5})\b/g)) {
    const offset = ZONE_ABBREVIATIONS[m[1]!];
    if (offset !== undefined) return offset;
  }
  return undefined;
}

interface Day {
  year: number;
  month: number;
  day: number;
}

/** The calendar day in `text` (the clock time already removed). */
function calendarDay(text: string): Day | null {
  const iso = /\b(\d{4})-(\d{1,2})-(\d{1,2})\b/.exec(text);
  if (iso) return { year: Number(iso[1]), month: Number(iso[2]), day: Number(iso[3]) };
  const slash = /\b(\d{1,2})\/(\d{1,2})\/(\d{4}|\d{2})\b/.exec(text);
  if (slash) {
    const a = Number(slash[1]);
    const b = Number(slash[2]);
    let year = Number(slash[3]);
    if (year < 100) year += 2000;
    // Month first (the US clients' order) unless the first number cannot be a month.
    return a > 12 ? { year, month: b, day: a } : { year, month: a, day: b };
  }
  const month = MONTH.exec(text);
  const year = /\b(\d{4})\b/.exec(text);
  if (!month || !year) return null;
  const withoutYear = text.replace(year[0], " ");
  const day = /\b(\d{1,2})(?:st|nd|rd|th)?\b/i.exec(withoutYear);
  if (!day) return null;
  return {
    year: Number(year[1]),
    month: MONTHS.indexOf(month[1]!.slice(0, 3).toLowerCase()) + 1,
    day: Number(day[1]),
  };
}

function isRealDay(d: Day): boolean {
  if (d.month < 1 || d.month > 12 || d.day < 1 || d.year < 1970 || d.year > 2200) return false;
  return new Date(Date.UTC(d.year, d.month - 1, d.day)).getUTCDate() === d.day;
}

/** The instant a forwarded block's date line names, or null when it names none. */
export function parseForwardedDate(line: string | null | undefined, timeZone: string): Date | null {
  if (!line || line.length > 200) return null;
  const text = line
    .replace(/[\s\u200b\u200e\u200f]+/g, " ")
    .replace(/(\d{4}-\d{1,2}-\d{1,2})T(?=\d)/, "$1 ")
    .trim();
  const clock = CLOCK.exec(text);
  let hour = 0;
  let minute = 0;
  let second = 0;
  let zoneText = "";
  let dayText = text;
  if (clock) {
    hour = Number(clock[1]);
    minute = Number(clock[2]);
    second = Number(clock[3] ?? 0);
    const meridiem = clock[4]?.toLowerCase();
    if (meridiem) {
      if (hour < 1 || hour > 12) return null;
      hour = (hour % 12) + (meridiem === "p" ? 12 : 0);
    }
    if (hour > 23 || minute > 59 || second > 59) return null;
    dayText = `${text.slice(0, clock.index)} ${text.slice(clock.index + clock[0].length)}`;
    zoneText = text.slice(clock.index + clock[0].length);
  }
  const day = calendarDay(dayText.replace(/\b(?:GMT|UTC)\s*[-+\u2212]\s*\d{1,2}(?::?\d{2})?/gi, " "));
  if (!day || !isRealDay(day)) return null;
  const offset = clock ? zoneOffset(zoneText) : undefined;
  const wall = { ...day, hour, minute, second };
  if (offset === undefined) return wallTimeIn(wall, timeZone);
  return new Date(Date.UTC(day.year, day.month - 1, day.day, hour, minute, second) - offset * 60_000);
}
