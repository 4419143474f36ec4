/**
 * Dates in statement files (CSV, QIF): numeric with any separator (`2024-03-05`, `5/3/24`,
 * `05.03.2024`, `20240305`), with a month name in several languages (`5 Mar 2024`, `Mar 5, 2024`,
 * `05-mars-2024`), an optional time after. The order of day and month is decided once per file from
 * all its dates (`decideOrder`), never row by row. A date that does not exist (31 February) is null.
 */
export type DateOrder = "mdy" | "dmy" | "ymd";

/**
 * Month names and abbreviations, January first: EN, FR, DE, ES, IT, NL, PT, PL, CS/SK, HU, FI,
 * Nordic, LT; lowercase, accented forms also without their accents (a lookup folds them away).
 */
const MONTH_WORDS = [
  "jan janv januar janvier january ene enero gen gennaio januari janeiro sty styczen stycznia led leden ledna tammi tammikuu saus sausio sausis jän",
  "feb fev fevr februar fevrier february febrero febbraio februari fevereiro lut luty lutego uno unor unora febr helmi vas vasario févr février",
  "mar mrz maerz marz mars march marzo mrt maart marco marc marcius brez brezen brezna maalis kov kovo märz mär março",
  "apr avr avril april abr abril aprile kwi kwiecien kwietnia dub duben dubna huhti bal balandzio",
  "may mai mayo mag maggio mei maio maj maja kve kveten kvetna touko geg geguzes majus",
  "jun juin juni june junio giu giugno junho cze czerwiec czerwca cer cerven cervna kesa birz birzelio junius",
  "jul juil juillet juli july julio lug luglio julho lip lipiec lipca cvc cervenec cervence heina liep liepos julius",
  "aug aou aout august ago agosto augustus sie sierpien sierpnia srp srpen srpna elo rugp rugpjucio augusztus août",
  "sep sept septembre september septiembre set settembre setembro wrz wrzesien wrzesnia zar zari syys rugs rugsejo szept szeptember",
  "oct okt oktober octobre october octubre ott ottobre out outubro paz pazdziernik pazdziernika rij rijen rijna loka spal spalio",
  "nov novembre november noviembre novembro lis listopad listopada marras lapkr lapkricio",
  "dec dez dezember decembre december dic diciembre dicembre dezembro gru grudzien grudnia pro prosinec prosince joulu gruod gruodzio desember des décembre",
].map((w) => w.split(" "));
/** Each month word → its month (1-12). */
export const MONTH_OF = new Map(MONTH_WORDS.flatMap((names, i) => names.map((n) => [n, i + 1] as const)));
const fold = (s: string) =>
  s
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/\.$/, "");
export const monthNumber = (word: string) => MONTH_OF.get(fold(word)) ?? 0;

/** A real calendar day → YYYY-MM-DD; null for 2012-02-31 and other days that do not exist. */
export function realDate(y: number, m: number, d: number): string | null {
  if (!Number.isInteger(y) || y < 1900 || y > 2200 || m < 1 || m > 12 || d < 1) return null;
  const days = new Date(Date.UTC(y, m, 0)).getUTCDate();
  if (d > days) return null;
  return `${y}-${String(m).padStart(2, "0")}-${String(d).padStart(2, "0")}`;
}

const fullYear = (y: number, digits: number) => (digits <= 2 ? (y < 70 ? 2000 + y : 1900 + y) : y);

type Parts =
  | { kind: "numeric"; a: string; b: string; c: string }
  | { kind: "named"; year: number; month: number; day: number };

function partsOf(raw: string): Parts | null {
  const v = raw.trim().replace(/^'+/, "");
  const n = /^(\d{1,4})\s*([./-])\s*(\d{1,2})\s*\2\s*(\d{1,4})\.?(?=$|[\sT,])/.exec(v);
  if (n) return { kind: "numeric", a: n[1]!, b: n[3]!, c: n[4]! };
  const compact = /^(\d{4})(\d{2})(\d{2})(?=$|[\sT]|\d{6})/.exec(v);
  if (compact) return { kind: "numeric", a: compact[1]!, b: compact[2]!, c: compact[3]! };
  const dmy = /^(\d{1,2})[\s./-]*(\p{L}{3,12})\.?[\s./,-]*(\d{2,4})(?=$|[\sT,])/u.exec(v);
  if (dmy && monthNumber(dmy[2]!)) {
    return {
      kind: "named",
      day: Number(dmy[1]),
      month: monthNumber(dmy[2]!),
      year: fullYear(Number(dmy[3]), dmy[3]!.length),
    };
  }
  const mdy = /^(\p{L}{3,12})\.?\s+(\d{1,2}),?\s+(\d{4})(?=$|[\sT,])/u.exec(v);
  if (mdy && monthNumber(mdy[1]!)) {
    return { kind: "named", day: Number(mdy[2]), month: monthNumber(mdy[1]!), year: Number(mdy[3]) };
  }
  return null;
}

/** Whether `raw` looks like a date at all (in some order). */
export const looksLikeDate = (raw: string) => partsOf(raw) !== null;

/** `raw` under `order` → YYYY-MM-DD, or null (not a date, or a day that does not exist). */
export function fileDate(raw: string, order: DateOrder): string | null {
  const p = partsOf(raw);
  if (!p) return null;
  if (p.kind === "named") return realDate(p.year, p.month, p.day);
  const [a, b, c] = [Number(p.a), Number(p.b), Number(p.c)];
  if (p.a.length === 4) return realDate(a, b, c);
  if (order === "ymd") return p.a.length >= 3 ? realDate(a, b, c) : null;
  const y = fullYear(c, p.c.length);
  return order === "dmy" ? realDate(y, b, a) : realDate(y, a, b);
}

/**
 * The one order under which every date of the file exists; among several, the one that keeps the
 * rows in date order, then `hint` (a day-first language or a decimal comma), then month-first.
 */
export function decideOrder(values: readonly string[], hint: DateOrder | null = null): DateOrder {
  const dates = values.filter((v) => v.trim() !== "" && looksLikeDate(v));
  const orders: DateOrder[] = ["ymd", "dmy", "mdy"];
  if (dates.some((v) => /^\d{4}/.test(v.trim()))) return "ymd";
  const fits = orders.filter((o) => dates.every((v) => fileDate(v, o) !== null));
  if (fits.length <= 1) return fits[0] ?? hint ?? "mdy";
  const sorted = (o: DateOrder) => {
    const seq = dates.map((v) => fileDate(v, o)!);
    const up = seq.every((d, i) => i === 0 || d >= seq[i - 1]!);
    const down = seq.every((d, i) => i === 0 || d <= seq[i - 1]!);
    return up || down;
  };
  const ordered = fits.filter(sorted);
  if (ordered.length === 1) return ordered[0]!;
  const pool = ordered.length ? ordered : fits;
  if (hint && pool.includes(hint)) return hint;
  if (dates.some((v) => /^\d{1,2}\.\d{1,2}\./.test(v.trim())) && pool.includes("dmy")) return "dmy";
  return pool.includes("mdy") ? "mdy" : pool[0]!;
}
