/**
 * Where the email prints the merchant a person typed: a tolerant match of what was typed
 * (case, accents, punctuation and spacing ignored; the typed name may be a prefix of the printed
 * one), widened to the email's own merchant span, so that a template anchors on the text around
 * the span and never on the merchant's own words ("Best Buy #905" typed, `BEST BUY #905 VANCOUVER
 * BC` printed: the slot is the whole printed name, and an alert from Burnaby reads too).
 */

export interface Occurrence {
  line: number;
  start: number;
  end: number;
  /** The printed text equals what was typed, case included. */
  sameCase: boolean;
  /** The match ends at a word's end (not a prefix of a longer word). */
  wordEnd: boolean;
}

const ALNUM = /[\p{L}\p{N}]/u;
/** Characters a printed name may hold (markup and brackets end it). */
const NAME_CHAR = /[^\s<>()[\]{}|"]/u;

/** The line's letters and digits, lowercased and without accents, with each one's index. */
function folded(s: string): { text: string; at: number[] } {
  let text = "";
  const at: number[] = [];
  for (let i = 0; i < s.length; i++) {
    const c = s[i] ?? "";
    if (!ALNUM.test(c)) continue;
    for (const f of c.normalize("NFKD").replace(/\p{M}/gu, "").toLowerCase()) {
      text += f;
      at.push(i);
    }
  }
  return { text, at };
}

/**
 * Widens a found name to the email's merchant span: the rest of its last word, then the words that
 * follow while they look like part of a printed name (no lowercase word such as "on", "for", "le";
 * in an all-caps name, no word with lowercase letters at all; in any other, nothing after a word
 * closed by punctuation, a sentence's end), never past `stop` (the next value on
 * the line). Trailing punctuation is left to the fixed text.
 */
export function widen(line: string, start: number, end: number, stop: number): number {
  let e = end;
  while (e < stop && NAME_CHAR.test(line[e] ?? "")) e++;
  const caps = !/\p{Ll}/u.test(line.slice(start, e));
  for (;;) {
    if (line[e] !== " " || e >= stop) break;
    // "compte abc. État actuel": a mark closing a word ends a name that is not all capitals.
    if (!caps && /[.,;:!?]/.test(line[e - 1] ?? "")) break;
    let w = e + 1;
    while (w < stop && NAME_CHAR.test(line[w] ?? "")) w++;
    const word = line.slice(e + 1, w);
    if (word === "" || /^\p{Ll}/u.test(word) || (caps && /\p{Ll}/u.test(word)) || /^[-–—:]/.test(word)) break;
    e = w;
  }
  while (e > start + 1 && /[.,;:!?]/.test(line[e - 1] ?? "") && !closesAbbreviation(line, e - 1)) e--;
  return e;
}

/** Legal forms and titles written with a closing period ("Ltd.", "Inc.", "Co."); lowercased. */
const ABBREVIATIONS = new Set(
  "inc ltd co corp llc plc sa ag bv nv ab as oy spa srl sl sas sarl gmbh kg ohg jr sr st mr mrs ms dr no nr vs etc cie bros assn intl mfg dept".split(
    " ",
  ),
);

/**
 * Whether the period at `at` closes an abbreviation or a legal form, not a sentence: a word with a
 * period inside it ("a.s.", "s.r.o.", "U.S.") or a known form ("Ltd.", "Inc."). A lone letter's
 * period ("W A.") is trimmed like any other, but never ends a sentence (sentenceEnd).
 */
export function closesAbbreviation(text: string, at: number): boolean {
  // "a.s.." : the first period closes the legal form, the second the bank's sentence.
  if (text[at] !== "." || text[at - 1] === ".") return false;
  let s = at;
  while (s > 0 && /[^\s|(]/u.test(text[s - 1] ?? "")) s--;
  const word = text.slice(s, at);
  if (word === "" || !/\p{L}/u.test(word)) return false;
  if (word.includes(".")) return true;
  return ABBREVIATIONS.has(word.toLowerCase().replace(/[^\p{L}]/gu, ""));
}

/**
 * Where a sentence ends at or after `from` in `text` (the index of its mark), or -1: `.` `!` `?`
 * `;` followed by a space and a capital letter or by the text's end, and not closing an
 * abbreviation ("AMAZON PAY IN E COMMERCE. The Available …" ends after COMMERCE; "Capi Hnizdo
 * a.s. Účet" does not end after "a.s."). Looks at most `limit` characters.
 */
export function sentenceEnd(text: string, from: number, limit: number): number {
  const stop = Math.min(text.length, from + limit);
  for (let i = from; i < stop; i++) {
    const c = text[i];
    if (c !== "." && c !== "!" && c !== "?" && c !== ";") continue;
    const next = text[i + 1];
    if (next !== undefined && next !== " " && next !== "\n") continue;
    const after = text[i + 2];
    if (next !== undefined && after !== undefined && !/[\p{Lu}\p{Lo}\n]/u.test(after) && c === ".") continue;
    if (
      closesAbbreviation(text, i) ||
      (c === "." && /(?:^|[\s(])\p{L}$/u.test(text.slice(Math.max(0, i - 2), i)))
    )
      continue;
    return i;
  }
  return -1;
}

/** Every place the typed name is printed (word-start aligned), before widening. */
export function findTyped(lines: string[], typed: string): Occurrence[] {
  const needle = folded(typed).text;
  const exact = typed.replace(/\s+/g, " ").trim();
  if (!needle) return [];
  const out: Occurrence[] = [];
  for (const [line, l] of lines.entries()) {
    const f = folded(l);
    for (let k = f.text.indexOf(needle); k >= 0; k = f.text.indexOf(needle, k + 1)) {
      const start = f.at[k] ?? 0;
      const end = (f.at[k + needle.length - 1] ?? start) + 1;
      if (ALNUM.test(l[start - 1] ?? "")) continue;
      // The fold may start mid-character of an accented letter: the printed text starts at a letter.
      if (out.some((o) => o.line === line && o.start === start)) continue;
      const wordEnd = !ALNUM.test(l[end] ?? "") || !ALNUM.test(l[end - 1] ?? "");
      out.push({ line, start, end, sameCase: l.slice(start, end) === exact, wordEnd });
    }
  }
  return out;
}
