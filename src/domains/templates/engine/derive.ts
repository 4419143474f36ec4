/**
 * Deriving a template from one email and the values a person typed for it: find each value
 * verbatim in the body, keep the fixed text around it, and keep the template only when it reads
 * exactly those values back from its own email. Every refusal says why in words.
 */
import { type Cents, formatCents } from "../../../lib/money";
import { amountForms, standsAlone } from "./amount";
import { flatten, labelsOf } from "./anchors";
import { findDate, findTime, isDateWord } from "./dates";
import { entryTokens, matchText, NUM_SRC, readWithPattern, unsafeEntry, WILD_MAX, wildMax } from "./match";
import { findTyped, type Occurrence, widen } from "./merchant-span";
import { senderHost, subjectWords, unwrapText } from "./text";
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
  /** Texts of the email the person marked as changing from alert to alert. */
  varying?: string[];
  /**
   * Consecutive value lines as one entry (a merge uses this when two emails broke a sentence at
   * different places); by default each value line is its own entry, so a line added between two
   * value lines does not stop a template.
   */
  blocks?: boolean;
  /** Read the email unwrapped (text.ts `unwrapText`); set when the typed merchant ran over a line break. */
  unwrap?: boolean;
}

export interface Derived {
  senderDomain: string;
  subjectWords: string[];
  pattern: TemplatePattern;
  /** The value lines with values as [slots] and every other number as #. */
  example: string;
  /** The merchant as the email prints it (the slot's text; may be longer than what was typed). */
  merchant: string;
}

export type DeriveResult = { ok: true; template: Derived } | { ok: false; reason: string };
const refuse = (reason: string): DeriveResult => ({ ok: false, reason });

interface Span {
  line: number;
  start: number;
  end: number;
  slot: SlotKind;
  max?: number;
}

const overlaps = (a: Omit<Span, "slot">, b: Omit<Span, "slot">) =>
  a.line === b.line && a.start < b.end && b.start < a.end;

/**
 * Every place the typed amount is printed, in the form found first. Each becomes an amount slot
 * and a reading needs them all to agree, so an amount that happened to equal another figure in
 * this email (a foreign amount, a balance) can never be read from the wrong place later.
 */
function findAmount(lines: string[], cents: Cents): { spans: Span[]; format: AmountFormat } | null {
  const alone = (l: string, text: string) =>
    occurrences(l, text).filter((i) => standsAlone(l, i, i + text.length));
  // Forms with cents first: a round amount printed without them ("$40") is looked for only after.
  for (const withCents of [true, false]) {
    let best: { line: number; at: number; text: string; format: AmountFormat } | null = null;
    for (const form of amountForms(cents).filter((f) => f.format.cents === withCents)) {
      const line = lines.findIndex((l) => alone(l, form.text).length > 0);
      const at = alone(lines[line] ?? "", form.text)[0];
      if (at !== undefined && (!best || line < best.line || (line === best.line && at < best.at)))
        best = { line, at, ...form };
    }
    if (best) {
      const { text, format } = best;
      const spans = lines.flatMap((l, line) =>
        alone(l, text).map((start): Span => ({ line, start, end: start + text.length, slot: "amount" })),
      );
      return { spans, format };
    }
  }
  return null;
}

function occurrences(hay: string, needle: string): number[] {
  const out: number[] = [];
  for (let at = hay.indexOf(needle); at >= 0; at = hay.indexOf(needle, at + 1)) out.push(at);
  return out;
}

/** Fixed text of a value line: literals, with every number in them turned into a skipped `num`. */
function tokensOf(text: string, spans: Span[]): Token[] {
  const out: Token[] = [];
  const literal = (s: string) => {
    let last = 0;
    for (const m of s.matchAll(new RegExp(NUM_SRC, "g"))) {
      if (m.index > last) out.push({ lit: s.slice(last, m.index) });
      out.push({ slot: "num" });
      last = m.index + m[0].length;
    }
    if (last < s.length) out.push({ lit: s.slice(last) });
  };
  let at = 0;
  for (const s of [...spans].sort((a, b) => a.start - b.start)) {
    literal(text.slice(at, s.start));
    out.push(s.max ? { slot: s.slot, max: s.max } : { slot: s.slot });
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
  wild: "[varies]",
  sp: " ",
};
export const renderTokens = (tokens: Token[]) =>
  tokens.map((t) => ("lit" in t ? t.lit : SHOW[t.slot])).join("");

export function maskedExample(p: TemplatePattern): string {
  return p.lines
    .flatMap((e) => [...(e.before ? [renderTokens(e.before)] : []), renderTokens(e.line)])
    .join("\n");
}

/** Whole words first, in the typed case first; a prefix of a longer printed name only after. */
const pickTyped = (found: Occurrence[]) =>
  found.find((o) => o.sameCase && o.wordEnd) ??
  found.find((o) => o.wordEnd) ??
  found.find((o) => o.sameCase) ??
  found[0];

/** The value spans of the merchant: its one slot, and copies of it on value lines as wildcards. */
function merchantSpans(
  lines: string[],
  typed: string,
  taken: Span[],
): { slot: Span; copies: Span[] } | "ambiguous" | null {
  const found = findTyped(lines, typed).filter((o) => !taken.some((s) => overlaps(s, o)));
  const same = found.filter((o) => o.sameCase);
  const pick = pickTyped(found);
  if (!pick) return null;
  // "at" typed, " at " and "AT" printed: which one is fixed text cannot be told.
  if (same.length === 0 && found.length > 1 && typed.replace(/[^\p{L}\p{N}]/gu, "").length < 3)
    return "ambiguous";
  const stopAt = (o: { line: number; start: number }) =>
    Math.min(
      (lines[o.line] ?? "").length,
      ...taken.filter((s) => s.line === o.line && s.start >= o.start).map((s) => s.start),
    );
  const wide = (o: { line: number; start: number; end: number }): Span => ({
    line: o.line,
    start: o.start,
    end: widen(lines[o.line] ?? "", o.start, o.end, stopAt(o)),
    slot: "merchant",
  });
  const slot = wide(pick);
  const copies: Span[] = [];
  for (const o of found) {
    if (o === pick || !o.wordEnd || (pick.sameCase && !o.sameCase)) continue;
    const c: Span = { ...wide(o), slot: "wild", max: WILD_MAX };
    if (![slot, ...copies].some((x) => overlaps(x, c))) copies.push(c);
  }
  return { slot, copies };
}

/** Spans a person marked as changing from alert to alert, on the given line. */
function markedOn(line: number, text: string, marks: string[], values: Span[]): Span[] | string {
  const out: Span[] = [];
  for (const mark of marks) {
    const m = mark.replace(/\s+/g, " ").trim();
    if (!m) continue;
    for (const start of occurrences(text, m)) {
      const span: Span = { line, start, end: start + m.length, slot: "wild" };
      const hit = values.find((v) => v.slot !== "wild" && overlaps(v, span));
      if (hit) return `the text you marked as changing ("${m}") overlaps the ${hit.slot}`;
      if (out.some((o) => overlaps(o, span)) || values.some((v) => overlaps(v, span))) continue;
      out.push({ ...span, max: wildMax(m.length) });
    }
  }
  return out;
}

export function deriveTemplate(input: LearnInput): DeriveResult {
  const domain = senderHost(input.fromEmail);
  if (!domain) return refuse("the sender's address has no domain to recognize the bank by");
  const lines = matchText(input.unwrap ? unwrapText(input.body) : input.body).split("\n");
  const amount = findAmount(lines, input.amount);
  if (!amount)
    return refuse(`the amount you typed (${formatCents(input.amount)}) does not appear in the email`);
  const spans: Span[] = [...amount.spans];
  const typed = pickTyped(findTyped(lines, input.merchant).filter((o) => !spans.some((s) => overlaps(s, o))));
  const core = typed ? [typed] : [];
  // The printed date: the first one with a time of day after it (on its line, then on the next), else
  // the first ("dated 28 Sep" in a sentence, "Date & Time: 28 Sep 08:58" below: the second).
  const dates = [...lines.entries()].flatMap(([line, l]) => {
    const d = findDate(l, input.date, input.sentIso);
    if (!d || [...spans, ...core].some((s) => overlaps(s, { line, ...d }))) return [];
    const t = findTime(l, d.end) ?? null;
    const tLine = t ? line : line + 1;
    const time = t ?? (lines[line + 1] !== undefined ? findTime(lines[line + 1] ?? "") : null);
    const free = time && ![...spans, ...core].some((s) => overlaps(s, { line: tLine, ...time }));
    return [{ line, d, time: time && free ? { line: tLine, ...time } : null }];
  });
  const chosen = dates.find((x) => x.time?.line === x.line) ?? dates.find((x) => x.time) ?? dates[0];
  const dateFormat = chosen?.d.format ?? null;
  if (chosen) {
    spans.push({ line: chosen.line, start: chosen.d.start, end: chosen.d.end, slot: "date" });
    if (chosen.time) spans.push({ ...chosen.time, slot: "time" });
  }
  if (!dateFormat && input.date !== input.sentIso)
    return refuse("the date you typed does not appear in the email and is not the day it was sent");
  // The merchant found nowhere, but the bank wrapped its lines: learn from the email unwrapped.
  if (!input.unwrap && findTyped(lines, input.merchant).length === 0) {
    const unwrapped = matchText(unwrapText(input.body));
    if (unwrapped !== lines.join("\n") && findTyped(unwrapped.split("\n"), input.merchant).length > 0)
      return deriveTemplate({ ...input, unwrap: true });
  }
  const merchant = merchantSpans(lines, input.merchant, spans);
  if (!merchant) return refuse("the merchant you typed does not appear in the email");
  if (merchant === "ambiguous")
    return refuse("the merchant you typed appears several times in the email, none in the case you typed it");
  spans.push(merchant.slot);
  const valueLines = new Set(spans.map((s) => s.line));
  spans.push(...merchant.copies.filter((c) => valueLines.has(c.line)));
  const sorted = [...valueLines].sort((a, b) => a - b);
  const blocks = input.blocks ? blocksOf(sorted) : sorted.map((l) => [l]);
  const entries: PatternLine[] = [];
  const marks = input.varying ?? [];
  const lineTokens = (line: number): Token[] | string => {
    const own = spans.filter((s) => s.line === line);
    const marked = markedOn(line, lines[line] ?? "", marks, own);
    if (typeof marked === "string") return marked;
    return tokensOf(lines[line] ?? "", [...own, ...marked]);
  };
  for (const block of blocks) {
    const tokens: Token[] = [];
    for (const line of block) {
      const t = lineTokens(line);
      if (typeof t === "string") return refuse(t);
      if (tokens.length > 0) tokens.push({ lit: "\n" });
      tokens.push(...t);
    }
    let before: Token[] | null = null;
    const first = block[0] ?? 0;
    if (!hasWords(tokens)) {
      if (first === 0)
        return refuse("a value stands alone on the email's first line, with no words around it");
      const t = lineTokens(first - 1);
      if (typeof t === "string") return refuse(t);
      before = t;
    }
    const entry = { before, line: tokens };
    const unsafe = unsafeEntry(entryTokens(entry));
    if (unsafe) return refuse(unsafe);
    entries.push(entry);
  }
  const pattern: TemplatePattern = {
    version: 1,
    lines: entries,
    amount: amount.format,
    date: dateFormat,
    ...(input.unwrap ? { unwrap: true } : {}),
    labels: [...labelsOf(input.body), ...followers(lines, merchant.slot)],
  };
  const printed = (lines[merchant.slot.line] ?? "").slice(merchant.slot.start, merchant.slot.end);
  const back = readWithPattern(pattern, input.body, input.sentIso);
  if (!back.ok) return refuse(`the template could not read its own email back: ${back.reason}`);
  const v = back.values;
  if (v.amount !== input.amount) return refuse("the template read a different amount back from the email");
  if (v.merchant !== printed.trim())
    return refuse(`the template read the merchant back as "${v.merchant}", not as printed`);
  if ((v.date ?? input.sentIso) !== input.date)
    return refuse("the template read a different date back from the email");
  const merchantWords = new Set(subjectWords(`${input.merchant} ${printed}`));
  return {
    ok: true,
    template: {
      senderDomain: domain,
      subjectWords: subjectWords(input.subject).filter((w) => !merchantWords.has(w) && !isDateWord(w)),
      pattern,
      example: maskedExample(pattern),
      merchant: printed.trim(),
    },
  };
}

/**
 * The first words of the line after a merchant that ends its line ("If unauthorised, call"): where
 * the merchant ends when a later alert prints both on one line.
 */
function followers(lines: string[], slot: Span): string[] {
  const line = lines[slot.line] ?? "";
  const next = lines[slot.line + 1];
  if (next === undefined || line.slice(slot.end).replace(/[.,;:!?\s]/g, "") !== "") return [];
  const words = flatten(next).low.split(" ").filter(Boolean).slice(0, 3).join(" ");
  return /\p{L}{2}/u.test(words) ? [words] : [];
}

/** Consecutive line numbers grouped: a block of value lines is matched as one. */
function blocksOf(lines: number[]): number[][] {
  const out: number[][] = [];
  for (const l of lines) {
    const last = out.at(-1);
    if (last && last.at(-1) === l - 1) last.push(l);
    else out.push([l]);
  }
  return out;
}
