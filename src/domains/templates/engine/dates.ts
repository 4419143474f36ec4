/**
 * Printed dates and times of a learned template. Each format is a regex (capture groups for its
 * parts, turned non-capturing when embedded in a line pattern) and a reader; the typed date picks
 * the format at derivation, so `03/04/2026` is never read both ways.
 */
/**
 * Month names and abbreviations, in the forms alerts print them: English, French, Spanish,
 * Portuguese, German, Italian, Dutch, Swedish, Danish, Norwegian, Czech, Slovak, Polish, Hungarian,
 * Turkish and Indonesian, with the genitive a date takes in Czech, Slovak and Polish ("14. října",
 * "6. septembra", "3 października"). Matched lowercased, a final period dropped. Short forms that
 * are common words in another language ("des", "sie", "set" aside) are left out.
 */
const MONTHS = [
  "jan january janv janvier ene enero janeiro januar jän jänner gennaio januari leden ledna január januára styczeń stycznia sty ocak",
  "feb february févr fevr février febrero fev fevereiro februar febbraio februari únor února február februára luty lutego lut şubat subat",
  "mar march mars marzo março marco märz mär maerz maart mrt marts březen března marec marca marzec március márc mart maret",
  "apr april avr avril abr abril aprile duben dubna apríl apríla kwiecień kwietnia kwi április ápr nisan",
  "may mai mayo maio maggio mei maj květen května máj mája maja május mayıs mayis",
  "jun june juin junio junho juni giugno červen června jún júna czerwiec czerwca cze június haziran",
  "jul july juil juillet julio julho juli luglio červenec července júl júla lipiec lipca július temmuz",
  "aug august août aout ago agosto augustus augusti srpen srpna augusta sierpień sierpnia augusztus ağustos agustos agustus",
  "sep sept september septembre septiembre set setiembre setembro settembre září septembra wrzesień września wrz szeptember szept eylül eylul",
  "oct october octobre octubre out outubro okt oktober ottobre říjen října október októbra październik października paź ekim",
  "nov november novembre noviembre novembro listopad listopadu novembra listopada kasım kasim",
  "dec december déc décembre dic diciembre dez dezembro dezember dicembre desember prosinec prosince decembra grudzień grudnia gru aralık aralik",
].map((names) => names.split(" "));

function monthOf(word: string): number | null {
  const w = word.toLowerCase().replace(/\.$/, "");
  const i = MONTHS.findIndex((names) => names.includes(w));
  return i < 0 ? null : i + 1;
}

const WEEKDAYS =
  "mon monday tue tuesday wed wednesday thu thursday fri friday sat saturday sun sunday am pm".split(" ");

/** Month and weekday names change from email to email: never a subject's fixed word. */
export const isDateWord = (w: string) => monthOf(w) !== null || WEEKDAYS.includes(w.toLowerCase());

const MON = "(\\p{L}{3,12}\\.?)";
type Parts = { y: number | null; m: number; d: number };

/** A format: its regex source and the order its groups print the year, month and day in. */
type DateFormat = { id: string; order: string; src: string };

const num = (s: string | undefined) => Number.parseInt(s ?? "", 10);

/** Formats with a year first: a yearless reading is tried only when none with a year fits. */
const DATE_FORMATS: DateFormat[] = [
  { id: "ymd", order: "ymd", src: "(\\d{4})-(\\d{2})-(\\d{2})" },
  { id: "ymd_slash", order: "ymd", src: "(\\d{4})/(\\d{1,2})/(\\d{1,2})" },
  { id: "mdy_slash", order: "mdy", src: "(\\d{1,2})/(\\d{1,2})/(\\d{4}|\\d{2})" },
  { id: "dmy_slash", order: "dmy", src: "(\\d{1,2})/(\\d{1,2})/(\\d{4}|\\d{2})" },
  // 14.10.2022, 6. 9. 2019, 16.01.15 (Czech, Slovak, German, Polish, … day first).
  { id: "dmy_dot", order: "dmy", src: "(\\d{1,2})\\. ?(\\d{1,2})\\. ?(\\d{4}|\\d{2})" },
  // 2024.03.01. (Hungarian, year first).
  { id: "ymd_dot", order: "ymd", src: "(\\d{4})\\. ?(\\d{1,2})\\. ?(\\d{1,2})\\.?" },
  // 2024年3月1日 (Japanese, Chinese), 2024년 3월 1일 (Korean).
  { id: "ymd_cjk", order: "ymd", src: "(\\d{4}) ?[年년] ?(\\d{1,2}) ?[月월] ?(\\d{1,2}) ?[日일]" },
  { id: "dmy_dash", order: "dmy", src: "(\\d{1,2})-(\\d{1,2})-(\\d{4})" },
  { id: "mdy_dash", order: "mdy", src: "(\\d{1,2})-(\\d{1,2})-(\\d{4})" },
  { id: "mon_d_y", order: "mdy", src: `${MON} (\\d{1,2}),? (\\d{4})` },
  { id: "d_mon_y", order: "dmy", src: `(\\d{1,2})\\.? ${MON},? (\\d{4})` },
  { id: "d_mon_y_slash", order: "dmy", src: `(\\d{1,2})/${MON}/(\\d{4})` },
  { id: "d_mon_y_dash", order: "dmy", src: `(\\d{1,2})-${MON}-(\\d{4}|\\d{2})` },
  { id: "mon_d", order: "md", src: `${MON} (\\d{1,2})` },
  { id: "d_mon", order: "dm", src: `(\\d{1,2})\\.? ${MON}` },
  { id: "md_cjk", order: "md", src: "(\\d{1,2}) ?[月월] ?(\\d{1,2}) ?[日일]" },
  { id: "d_mon_slash", order: "dm", src: `(\\d{1,2})/${MON}` },
];

/** A format's groups read in its order: a month by number or name, a two-digit year this century's. */
function partsOf(order: string, g: string[]): Parts | null {
  const at = (part: string) => g[order.indexOf(part)];
  const [y, mon = "", d] = [at("y"), at("m"), at("d")];
  const m = /^\d/.test(mon) ? num(mon) : monthOf(mon);
  if (!m) return null;
  return { y: y === undefined ? null : y.length === 2 ? 2000 + num(y) : num(y), m, d: num(d) };
}

const BOUNDARY_BEFORE = "(?<![\\p{L}\\d/.-])";
const BOUNDARY_AFTER = "(?![\\p{L}\\d]|[/-]\\d)";

/** A format's regex source with its groups made non-capturing (to embed in a line pattern). */
export function dateRegex(id: string): string | null {
  const f = DATE_FORMATS.find((x) => x.id === (EITHER[id]?.[0] ?? id));
  return f ? f.src.replace(/\((?!\?)/g, "(?:") : null;
}

function valid(p: Parts): boolean {
  if (p.m < 1 || p.m > 12 || p.d < 1) return false;
  const y = p.y ?? 2000; // a leap year: Feb 29 without a year is allowed
  return p.d <= new Date(Date.UTC(y, p.m, 0)).getUTCDate();
}

const iso = (y: number, m: number, d: number) =>
  `${String(y).padStart(4, "0")}-${String(m).padStart(2, "0")}-${String(d).padStart(2, "0")}`;

/**
 * Reads a captured date in format `id`. A yearless date takes the year that puts it on or before
 * the day after the email's sent day (`sentIso`, YYYY-MM-DD), by less than a year. A date whose
 * day and month order the example could not tell (`either_*`: it printed `05/05/2026`) is read
 * both ways and the reading nearest before the sent day wins: an alert follows its transaction.
 */
export function readDate(text: string, id: string, sentIso: string): string | null {
  const pair = EITHER[id];
  if (pair) {
    const all = pair.map((x) => readDate(text, x, sentIso)).filter((d): d is string => d !== null);
    const next = dayAfter(sentIso);
    const before = all.filter((d) => d <= next).sort();
    return before.at(-1) ?? all.sort()[0] ?? null;
  }
  const f = DATE_FORMATS.find((x) => x.id === id);
  if (!f) return null;
  const m = new RegExp(`^${f.src}$`, "u").exec(text);
  if (!m) return null;
  const p = partsOf(f.order, m.slice(1));
  if (!p || !valid(p)) return null;
  if (p.y !== null) return iso(p.y, p.m, p.d);
  const sentYear = num(sentIso.slice(0, 4));
  const candidate = iso(sentYear, p.m, p.d);
  // A day of slack: the bank's day may be a day ahead of the configured zone's (Singapore, Los Angeles).
  return candidate <= dayAfter(sentIso) ? candidate : iso(sentYear - 1, p.m, p.d);
}

const dayAfter = (isoDay: string) =>
  new Date(Date.parse(`${isoDay}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);

/** Numeric formats whose day and month order one example may leave open, by their either-id. */
const EITHER: Record<string, [string, string]> = {
  either_slash: ["dmy_slash", "mdy_slash"],
  either_dash: ["dmy_dash", "mdy_dash"],
};
const eitherOf = (id: string) => Object.keys(EITHER).find((k) => EITHER[k]?.includes(id)) ?? null;

/** Where the typed date is printed in `line` (formats with a year first, then by position). */
export function findDate(
  line: string,
  typed: string,
  sentIso: string,
): { start: number; end: number; format: string } | null {
  for (const { f, m } of printed(line)) {
    if (readDate(m[0], f.id, sentIso) !== typed) continue;
    // Both orders read the typed date (day = month): the order is left to later emails.
    const either = eitherOf(f.id);
    const open = either && EITHER[either]?.every((x) => readDate(m[0], x, sentIso) === typed);
    return { start: m.index, end: m.index + m[0].length, format: open ? either : f.id };
  }
  return null;
}

/** Every date printed in `line`, format by format (formats with a year first). */
function* printed(line: string) {
  for (const f of DATE_FORMATS)
    for (const m of line.matchAll(new RegExp(`${BOUNDARY_BEFORE}${f.src}${BOUNDARY_AFTER}`, "gu")))
      yield { f, m };
}

/** A time of day: `15:42`, `3:42 PM`, `3:42:10 p.m.` (seconds are read and dropped). */
export const TIME_SRC = "\\d{1,2}:\\d{2}(?::\\d{2})?(?: ?[AaPp](?:\\. ?[Mm]\\.|[Mm]))?";

export function readTime(text: string): string | null {
  const m = /^(\d{1,2}):(\d{2})(?::\d{2})?(?: ?([AaPp])(?:\. ?[Mm]\.|[Mm]))?$/.exec(text);
  if (!m) return null;
  let h = num(m[1]);
  const min = num(m[2]);
  const ampm = m[3]?.toLowerCase();
  if (min > 59) return null;
  if (ampm) {
    if (h < 1 || h > 12) return null;
    h = (h % 12) + (ampm === "p" ? 12 : 0);
  } else if (h > 23) return null;
  return `${String(h).padStart(2, "0")}:${String(min).padStart(2, "0")}`;
}

/** The first time of day in `line` at or after `from`. */
export function findTime(line: string, from = 0): { start: number; end: number } | null {
  const re = new RegExp(`(?<![\\d:])${TIME_SRC}(?![\\d:]|\\p{L})`, "gu");
  re.lastIndex = from;
  const m = re.exec(line);
  return m ? { start: m.index, end: m.index + m[0].length } : null;
}

/**
 * Every date printed in `line` (any format), each read once: for a slash or dash date both
 * day-first and month-first readings are kept when both are valid (the caller picks).
 */
export function datesIn(line: string, sentIso: string): { start: number; end: number; iso: string }[] {
  return [...printed(line.slice(0, 2000))].flatMap(({ f, m }) => {
    const iso = readDate(m[0], f.id, sentIso);
    return iso ? [{ start: m.index, end: m.index + m[0].length, iso }] : [];
  });
}
