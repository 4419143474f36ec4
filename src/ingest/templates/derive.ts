/**
 * Deriving a template from one email and the values a person typed for it: find each value
 * verbatim in the body, keep the fixed text around it, and keep the template only when it reads
 * exactly those values back from its own email. Every refusal says why in words.
 */
import { type Cents, formatCents } from "../../lib/money";
import { amountForms, standsAlone } from "./amount";
import { findDate, findTime, isDateWord } from "./dates";
import { readWithPattern } from "./match";
import { bodyLines, senderHost, subjectWords } from "./text";
import type { AmountFormat, PatternLine, SlotKind, TemplatePattern, Token } from "./types";

export interface LearnInput {
  fromEmail: string;
  subject: string;
  body: string;
  /** The email's sent day, YYYY-MM-DD in the configured zone. */
  sentIso: string;
  amount: Cents;
  merchant: string;
  /** YYYY-MM-DD as typed. */
  date: string;
}

export interface Derived {
  senderDomain: string;
  subjectWords: string[];
  pattern: TemplatePattern;
  /** The value lines with values as [slots] and every other number as #. */
  example: string;
}

export type DeriveResult = { ok: true; template: Derived } | { ok: false; reason: string };

interface Span {
  line: number;
  start: number;
  end: number;
  slot: SlotKind;
}

const overlaps = (a: Span, b: Omit<Span, "slot">) => a.line === b.line && a.start < b.end && b.start < a.end;

/**
 * Every place the typed amount is printed, in the form found first. Each becomes an amount slot
 * and a reading needs them all to agree, so an amount that happened to equal another figure in
 * this email (a foreign amount, a balance) can never be read from the wrong place later.
 */
function findAmount(lines: string[], cents: Cents): { spans: Span[]; format: AmountFormat } | null {
  // Forms with cents first: a round amount printed without them ("$40") is looked for only after.
  for (const withCents of [true, false]) {
    let best: { line: number; at: number; text: string; format: AmountFormat } | null = null;
    for (const form of amountForms(cents).filter((f) => f.format.cents === withCents)) {
      for (const [line, l] of lines.entries()) {
        const at = occurrences(l, form.text).find((i) => standsAlone(l, i, i + form.text.length));
        if (at === undefined) continue;
        if (!best || line < best.line || (line === best.line && at < best.at)) {
          best = { line, at, text: form.text, format: form.format };
        }
        break;
      }
    }
    if (best) {
      const text = best.text;
      const spans = [...lines.entries()].flatMap(([line, l]) =>
        occurrences(l, text)
          .filter((i) => standsAlone(l, i, i + text.length))
          .map((start): Span => ({ line, start, end: start + text.length, slot: "amount" })),
      );
      return { spans, format: best.format };
    }
  }
  return null;
}

function occurrences(hay: string, needle: string): number[] {
  const out: number[] = [];
  for (let at = hay.indexOf(needle); at >= 0; at = hay.indexOf(needle, at + 1)) out.push(at);
  return out;
}

const WORD = /[\p{L}\d]/u;

/**
 * Where the typed merchant is printed: every occurrence in the typed case (each a slot; readings
 * must agree), else a single occurrence in another case. Several in other cases only ("at" typed, " at "
 * and "AT" printed) is ambiguous: which one is fixed text cannot be told, so none is chosen.
 */
function findMerchant(lines: string[], typed: string, taken: Span[]): Span[] | "ambiguous" | null {
  const exact = typed.replace(/\s+/g, " ").trim();
  const needle = exact.toLowerCase();
  if (!needle) return null;
  const found: (Span & { sameCase: boolean })[] = [];
  for (const [line, l] of lines.entries()) {
    for (const at of occurrences(l.toLowerCase(), needle)) {
      const end = at + needle.length;
      const edgeOk =
        !(WORD.test(needle[0] ?? "") && WORD.test(l[at - 1] ?? "")) &&
        !(WORD.test(needle.at(-1) ?? "") && WORD.test(l[end] ?? ""));
      if (edgeOk && !taken.some((s) => overlaps(s, { line, start: at, end }))) {
        found.push({ line, start: at, end, slot: "merchant", sameCase: l.slice(at, end) === exact });
      }
    }
  }
  const same = found.filter((f) => f.sameCase);
  const picked = same.length > 0 ? same : found.length === 1 ? found : [];
  if (picked.length === 0) return found.length > 1 ? "ambiguous" : null;
  return picked.map(({ line, start, end }) => ({ line, start, end, slot: "merchant" }));
}

/** Fixed text of a value line: literals, with every number in them turned into a skipped `num`. */
function tokensOf(text: string, spans: Span[]): Token[] {
  const out: Token[] = [];
  const literal = (s: string) => {
    let last = 0;
    for (const m of s.matchAll(/\d(?:[\d,.]*\d)?/g)) {
      if (m.index > last) out.push({ lit: s.slice(last, m.index) });
      out.push({ slot: "num" });
      last = m.index + m[0].length;
    }
    if (last < s.length) out.push({ lit: s.slice(last) });
  };
  let at = 0;
  for (const s of [...spans].sort((a, b) => a.start - b.start)) {
    literal(text.slice(at, s.start));
    out.push({ slot: s.slot });
    at = s.end;
  }
  literal(text.slice(at));
  return out;
}

/**
 * A line is recognizable by itself when its fixed text has a word in it; "$23.75" alone could be
 * any amount line (a balance), so it is anchored by the line above.
 */
const hasWords = (tokens: Token[]) => tokens.some((t) => "lit" in t && /\p{L}/u.test(t.lit));

const SHOW: Record<SlotKind, string> = {
  amount: "[amount]",
  merchant: "[merchant]",
  date: "[date]",
  time: "[time]",
  num: "#",
};
export const renderTokens = (tokens: Token[]) =>
  tokens.map((t) => ("lit" in t ? t.lit : SHOW[t.slot])).join("");

function maskedExample(p: TemplatePattern): string {
  return p.lines
    .flatMap((e) => [...(e.before ? [renderTokens(e.before)] : []), renderTokens(e.line)])
    .join("\n");
}

export function deriveTemplate(input: LearnInput): DeriveResult {
  const domain = senderHost(input.fromEmail);
  if (!domain) return { ok: false, reason: "the sender's address has no domain to recognize the bank by" };
  const lines = bodyLines(input.body);
  const amount = findAmount(lines, input.amount);
  if (!amount) {
    return {
      ok: false,
      reason: `the amount you typed (${formatCents(input.amount)}) does not appear in the email`,
    };
  }
  const spans: Span[] = [...amount.spans];
  const merchant = findMerchant(lines, input.merchant, spans);
  if (!merchant) return { ok: false, reason: "the merchant you typed does not appear in the email" };
  if (merchant === "ambiguous") {
    return {
      ok: false,
      reason: "the merchant you typed appears several times in the email, none in the case you typed it",
    };
  }
  spans.push(...merchant);
  let dateFormat: string | null = null;
  for (const [line, l] of lines.entries()) {
    const d = findDate(l, input.date, input.sentIso);
    if (!d || spans.some((s) => overlaps(s, { line, ...d }))) continue;
    dateFormat = d.format;
    spans.push({ line, start: d.start, end: d.end, slot: "date" });
    // The time of day, when printed: on the date's line after it, else on the next line.
    const t = findTime(l, d.end) ?? null;
    const tLine = t ? line : line + 1;
    const time = t ?? (lines[line + 1] !== undefined ? findTime(lines[line + 1] ?? "") : null);
    if (time && !spans.some((s) => overlaps(s, { line: tLine, ...time }))) {
      spans.push({ line: tLine, ...time, slot: "time" });
    }
    break;
  }
  if (!dateFormat && input.date !== input.sentIso) {
    return {
      ok: false,
      reason: "the date you typed does not appear in the email and is not the day it was sent",
    };
  }
  const entries: PatternLine[] = [];
  for (const line of [...new Set(spans.map((s) => s.line))].sort((a, b) => a - b)) {
    const tokens = tokensOf(
      lines[line] ?? "",
      spans.filter((s) => s.line === line),
    );
    let before: Token[] | null = null;
    if (!hasWords(tokens)) {
      if (line === 0)
        return {
          ok: false,
          reason: "a value stands alone on the email's first line, with no words around it",
        };
      before = tokensOf(
        lines[line - 1] ?? "",
        spans.filter((s) => s.line === line - 1),
      );
    }
    entries.push({ before, line: tokens });
  }
  const pattern: TemplatePattern = { version: 1, lines: entries, amount: amount.format, date: dateFormat };
  const merchantText = input.merchant.replace(/\s+/g, " ").trim();
  const back = readWithPattern(pattern, input.body, input.sentIso);
  if (!back.ok)
    return { ok: false, reason: `the template could not read its own email back: ${back.reason}` };
  const v = back.values;
  if (v.amount !== input.amount)
    return { ok: false, reason: "the template read a different amount back from the email" };
  if (v.merchant.toLowerCase() !== merchantText.toLowerCase()) {
    return { ok: false, reason: `the template read the merchant back as "${v.merchant}", not as typed` };
  }
  if ((v.date ?? input.sentIso) !== input.date) {
    return { ok: false, reason: "the template read a different date back from the email" };
  }
  const merchantWords = new Set(subjectWords(merchantText));
  return {
    ok: true,
    template: {
      senderDomain: domain,
      subjectWords: subjectWords(input.subject).filter((w) => !merchantWords.has(w) && !isDateWord(w)),
      pattern,
      example: maskedExample(pattern),
    },
  };
}
