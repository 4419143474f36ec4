/**
 * The fingerprint of a bank's statement page: the words of the table's header line and where they
 * stand. A layout is taught once and found again on the next statement by that header (same words,
 * each within a few points of where it stood), whatever the rows, dates and amounts. Pure.
 */
import { readAmount, type Line } from "../parsers/layout";
import { parseRowDate } from "../parsers/dates";
import type { Span } from "./read";

export interface HeaderWord {
  t: string;
  x: number;
}

const word = (s: string) => s.toLowerCase().replace(/[^\p{L}]+/gu, "");
const TOLERANCE = 6;

/** A line of words only (no amount, no date, at least two words): a header candidate. */
function headerWords(line: Line): HeaderWord[] | null {
  const words = line.items
    .filter((i) => !readAmount(i.str) && !parseRowDate(i.str))
    .map((i) => ({ t: word(i.str), x: Math.round(i.x) }))
    .filter((w) => w.t.length > 1);
  if (words.length < 2 || words.length !== line.items.length) return null;
  return words;
}

/**
 * The header the person's marks sit under: the nearest words-only line above the first line that
 * has something in the date span and something in an amount span, on the same page.
 */
export function findHeader(
  lines: readonly Line[],
  marks: Record<string, Span | undefined>,
): { line: Line; words: HeaderWord[] } | null {
  const inSpan = (s: Span | undefined, x0: number, x1: number) => s && x1 >= s.x0 - 10 && x0 <= s.x1 + 10;
  const first = lines.findIndex(
    (l) =>
      l.items.some((i) => inSpan(marks.date, i.x, i.x + i.w) && parseRowDate(i.str)) &&
      l.items.some(
        (i) =>
          readAmount(i.str) &&
          (inSpan(marks.amount, i.x, i.x + i.w) ||
            inSpan(marks.withdrawal, i.x, i.x + i.w) ||
            inSpan(marks.deposit, i.x, i.x + i.w)),
      ),
  );
  if (first < 0) return null;
  for (let i = first - 1; i >= 0 && lines[i]!.page === lines[first]!.page; i--) {
    const words = headerWords(lines[i]!);
    if (words) return { line: lines[i]!, words };
  }
  return null;
}

/** The stored fingerprint: the header's words in order (positions are compared with a tolerance). */
export const fingerprintOf = (words: readonly HeaderWord[]) => words.map((w) => w.t).join("|");

/** The y of each page's header line matching `words` (same words, each within TOLERANCE points). */
export function headerLines(lines: readonly Line[], words: readonly HeaderWord[]): Map<number, number> {
  const out = new Map<number, number>();
  for (const l of lines) {
    if (out.has(l.page)) continue;
    const got = headerWords(l);
    if (!got || got.length !== words.length) continue;
    if (got.every((g, i) => g.t === words[i]!.t && Math.abs(g.x - words[i]!.x) <= TOLERANCE))
      out.set(l.page, l.y);
  }
  return out;
}
