/**
 * Email dates → the configured zone. Pure; Intl only (workerd ships full ICU).
 * PST/PDT always mean US Pacific, whatever zone is configured.
 */

export const MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];

/**
 * THE zone abbreviations read as fixed offsets (minutes east of UTC), for Date headers (RFC 5322's
 * obs-zone names and the ones mail servers print anyway) and forwarded date lines alike; PST/PDT
 * are always US Pacific. An abbreviation not listed reads as UTC in a header.
 */
export const ZONE_ABBREVIATIONS: Record<string, number> = {
  UT: 0,
  UTC: 0,
  GMT: 0,
  Z: 0,
  WET: 0,
  BST: 60,
  CET: 60,
  CEST: 120,
  EET: 120,
  EEST: 180,
  NST: -210,
  NDT: -150,
  AST: -240,
  ADT: -180,
  EST: -300,
  EDT: -240,
  CST: -360,
  CDT: -300,
  MST: -420,
  MDT: -360,
  PST: -480,
  PDT: -420,
  AKST: -540,
  AKDT: -480,
  HST: -600,
};

const RFC_DATE =
  /(\d{1,2})\s+([a-z]{3})[a-z]*\.?\s+(\d{2,4})\s+(\d{1,2}):(\d{2})(?::(\d{2}))?\s*([+-]\d{4}|[a-z]{1,5})?/i;

/** Parses an RFC 5322 Date header (lenient); null when it names no instant. */
export function parseEmailDate(header: string | null | undefined): Date | null {
  if (!header) return null;
  const m = RFC_DATE.exec(header);
  if (m) {
    const [, d, mon, y, hh, mm, ss, zone] = m;
    const month = MONTHS.indexOf((mon ?? "").toLowerCase());
    let year = Number(y);
    if (year < 100) year += year < 50 ? 2000 : 1900;
    if (month >= 0) {
      let offset = 0;
      if (zone && /^[+-]\d{4}$/.test(zone)) {
        const sign = zone[0] === "-" ? -1 : 1;
        offset = sign * (Number(zone.slice(1, 3)) * 60 + Number(zone.slice(3, 5)));
      } else if (zone) {
        offset = ZONE_ABBREVIATIONS[zone.toUpperCase()] ?? 0;
      }
      const utc = Date.UTC(year, month, Number(d), Number(hh), Number(mm), Number(ss ?? 0)) - offset * 60_000;
      const date = new Date(utc);
      if (!Number.isNaN(date.getTime())) return date;
    }
  }
  const fallback = Date.parse(header);
  return Number.isNaN(fallback) ? null : new Date(fallback);
}

export interface LocalParts {
  year: string;
  month: string;
  day: string;
  hour: string;
  minute: string;
  /** Short zone name, e.g. PST, PDT, EST (or GMT+1 where the locale has none). */
  zone: string;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-US", {
      timeZone,
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      hourCycle: "h23",
      timeZoneName: "short",
    });
    formatters.set(timeZone, f);
  }
  return f;
}

/** Wall-clock parts of an instant in `timeZone` (falls back to UTC for an unknown zone). */
export function localParts(date: Date, timeZone: string): LocalParts {
  let f: Intl.DateTimeFormat;
  try {
    f = formatter(timeZone);
  } catch {
    f = formatter("UTC");
  }
  const parts: Record<string, string> = {};
  for (const p of f.formatToParts(date)) parts[p.type] = p.value;
  return {
    year: parts.year ?? "1970",
    month: parts.month ?? "01",
    day: parts.day ?? "01",
    hour: parts.hour === "24" ? "00" : (parts.hour ?? "00"),
    minute: parts.minute ?? "00",
    zone: parts.timeZoneName ?? "UTC",
  };
}

/** `YYYY.MM.DD_HH.MM_<filename>.eml` in local time. */
export function dateFileName(p: LocalParts, filename: string): string {
  return `${p.year}.${p.month}.${p.day}_${p.hour}.${p.minute}_${filename}.eml`;
}

/** `MM/DD/YYYY HH:MM ZZZ` in the configured zone. */
export function displayDate(p: LocalParts): string {
  return `${p.month}/${p.day}/${p.year} ${p.hour}:${p.minute} ${p.zone}`;
}

/**
 * A day typed without a time (`YYYY-MM-DD`, a hand entry): 00:00 of that day, as statement lines
 * are stored, with the zone name in force that day in `timeZone` (read at noon UTC, which falls
 * on that calendar day in every zone the journal is used in).
 */
export function dayParts(date: string, timeZone: string): LocalParts {
  const [year = "1970", month = "01", day = "01"] = date.split("-");
  const zone = localParts(new Date(`${date}T12:00:00Z`), timeZone).zone;
  return { year, month, day, hour: "00", minute: "00", zone };
}

export interface WallTime {
  year: number;
  /** 1-12 */
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

const secondFormatters = new Map<string, Intl.DateTimeFormat>();

/** Minutes east of UTC that `timeZone` is at instant `ms` (0 for an unknown zone). */
function zoneOffsetMinutes(ms: number, timeZone: string): number {
  let f = secondFormatters.get(timeZone);
  if (!f) {
    try {
      f = new Intl.DateTimeFormat("en-US", {
        timeZone,
        year: "numeric",
        month: "numeric",
        day: "numeric",
        hour: "numeric",
        minute: "numeric",
        second: "numeric",
        hourCycle: "h23",
      });
    } catch {
      return 0;
    }
    secondFormatters.set(timeZone, f);
  }
  const p: Record<string, number> = {};
  for (const part of f.formatToParts(new Date(ms))) p[part.type] = Number(part.value);
  const wall = Date.UTC(p.year!, p.month! - 1, p.day!, p.hour === 24 ? 0 : p.hour!, p.minute!, p.second!);
  return Math.round((wall - Math.floor(ms / 1000) * 1000) / 60_000);
}

/**
 * The instant a naive wall-clock time names in `timeZone`. In a DST gap the clock is read with the
 * offset in force before the change; in an overlap, the earlier of the two instants.
 */
export function wallTimeIn(w: WallTime, timeZone: string): Date {
  const asUtc = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second);
  const first = zoneOffsetMinutes(asUtc, timeZone);
  let ms = asUtc - first * 60_000;
  const second = zoneOffsetMinutes(ms, timeZone);
  if (second !== first) {
    const alt = asUtc - second * 60_000;
    // Keep whichever reading maps back onto the same wall clock (the earlier one in an overlap).
    if (zoneOffsetMinutes(alt, timeZone) === second) ms = Math.min(ms, alt);
  }
  return new Date(ms);
}

/** RFC 5322 date of an instant, in UTC (what a normalized Date header carries). */
export function rfc5322Utc(date: Date): string {
  return date.toUTCString().replace(/GMT$/, "+0000");
}
