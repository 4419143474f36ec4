/**
 * Reading an email with a learned template, in time linear in the email's length.
 *
 * The body's lines are joined by "\n" into one text. A pattern entry (a value line, with the line
 * above it when it has one) is a token list: literal anchors, bounded slots (amount, date, time,
 * other numbers: each read by a sticky regex of bounded length at one position) and free slots
 * (the merchant, at most 200 characters; a wildcard, at most its own bound; both within one line,
 * a line break that varies is an `sp` token). A free slot
 * is always followed by a literal or the line's end, so its possible ends are the anchor's
 * occurrences (found with indexOf) within its bound. The matcher walks the tokens once, carrying
 * the set of positions reachable so far and how many readings reach each (0, 1 or "several"):
 * no backtracking, O(tokens × text) at worst. Exactly one reading of exactly one place is accepted;
 * none says which anchor was not found, several say so.
 */
import { amountRegex, readAmount } from "./amount";
import { holdsFieldEnd, readByAnchors } from "./anchors";
import { dateRegex, readDate, readTime, TIME_SRC } from "./dates";
import { sentenceEnd } from "./merchant-span";
import { bodyLines, unwrapText } from "./text";
import type { Extracted, PatternLine, SlotKind, TemplatePattern, Token } from "./types";

/** A body line longer than this is never read (a bank prints its values on short lines). */
export const MAX_LINE = 1000;
/** Read by anchors only (anchors.ts), a line may be this long: a whole alert flattened onto one line. */
export const MAX_FLAT_LINE = 20 * MAX_LINE;
/** A merchant is at most this long (and on one line). */
export const MERCHANT_MAX = 200;
/** A wildcard's bound when the pattern gives none, and the largest it may give. */
export const WILD_MAX = 200;
/** The bound of a wildcard over varying text of this length: twice it, at least 40. */
export const wildMax = (length: number) => Math.min(WILD_MAX, Math.max(40, 2 * length));

/** Any other number: digits, with `,` `.` `'` `’` between them (a balance `3’333.33`). */
export const NUM_SRC = "\\d(?:[\\d,.'’]{0,30}\\d)?";
const FREE = new Set<SlotKind>(["merchant", "wild"]);
export const EXTRACTED = new Set<SlotKind>(["amount", "merchant", "date", "time"]);
const isFree = (t: Token | undefined) => !!t && "slot" in t && FREE.has(t.slot);

function boundedSrc(slot: SlotKind, p: TemplatePattern): string {
  if (slot === "amount") return amountRegex(p.amount);
  if (slot === "date") return dateRegex(p.date ?? "") ?? "(?!)";
  if (slot === "time") return TIME_SRC;
  if (slot === "sp") return "[ \\n]";
  return NUM_SRC;
}

/** The entry as one token list: the line above, a line break, the value line; literals merged. */
export function entryTokens(entry: PatternLine): Token[] {
  const raw = entry.before ? [...entry.before, { lit: "\n" }, ...entry.line] : entry.line;
  const out: Token[] = [];
  for (const t of raw) {
    const last = out.at(-1);
    if ("lit" in t && last && "lit" in last) out[out.length - 1] = { lit: last.lit + t.lit };
    else if (!("lit" in t) || t.lit !== "") out.push(t);
  }
  return out;
}

/** The text a pattern reads: body lines joined by "\n", over-long lines blanked to one NUL. */
export function matchText(body: string): string {
  return bodyLines(body)
    .map((l) => (l.length > MAX_LINE ? "\u0000" : l))
    .join("\n");
}

interface Layer {
  pos: number[];
  cnt: number[]; // 1 or 2 (= several)
  pred: number[]; // index in the previous layer when cnt is 1
}

const SLOT_NAME: Record<SlotKind, string> = {
  amount: "the amount",
  merchant: "the merchant",
  date: "the date",
  time: "the time",
  num: "a number",
  wild: "the text that varies",
  sp: "a space",
};

/** Which anchor did not match, in words. */
function missAt(tokens: Token[], i: number): string {
  const t = tokens[i];
  const prev = tokens[i - 1];
  const next = tokens[i + 1];
  const show = (s: string) =>
    `"${
      s
        .split("\n")
        .map((x) => x.trim())
        .filter(Boolean)
        .join(" / ") || s
    }"`;
  if (!t) return "the line goes on past where the template's line ends";
  if ("lit" in t) {
    const where =
      prev && "slot" in prev
        ? `${t.lit.trimStart().length < t.lit.length && t.lit.includes("\n") ? "on the line after" : "after"} ${SLOT_NAME[prev.slot]}`
        : next && "slot" in next
          ? `before ${SLOT_NAME[next.slot]}`
          : "";
    return `the anchor ${show(t.lit)}${where ? ` ${where}` : ""} was not found`;
  }
  if (FREE.has(t.slot) && next && "lit" in next)
    return `the anchor ${show(next.lit)} after ${SLOT_NAME[t.slot]} was not found`;
  const anchor = prev && "lit" in prev ? ` after ${show(prev.lit)}` : "";
  return `${SLOT_NAME[t.slot]} was not in its learned format${anchor}`;
}

function addState(m: Map<number, { cnt: number; pred: number }>, pos: number, cnt: number, pred: number) {
  const had = m.get(pos);
  if (had) m.set(pos, { cnt: 2, pred: -1 });
  else m.set(pos, { cnt: Math.min(cnt, 2), pred: cnt === 1 ? pred : -1 });
}

function toLayer(m: Map<number, { cnt: number; pred: number }>): Layer {
  const keys = [...m.keys()].sort((a, b) => a - b);
  return {
    pos: keys,
    cnt: keys.map((k) => m.get(k)?.cnt ?? 0),
    pred: keys.map((k) => m.get(k)?.pred ?? -1),
  };
}

type Free = Extract<Token, { slot: SlotKind }>;

/** Free slot then literal: every occurrence of the literal within reach of a live position. */
function freeThenLit(text: string, from: Layer, slot: Free, lit: string) {
  const merchant = slot.slot === "merchant";
  const bound = merchant ? MERCHANT_MAX : Math.min(slot.max ?? WILD_MAX, WILD_MAX);
  const empty = slot.opt ? 1 : 0; // an optional wildcard may be empty
  // Live starts: a merchant starts on a non-space and stays on its line.
  const idx: number[] = [];
  for (let k = 0; k < from.pos.length; k++) {
    const p = from.pos[k] ?? 0;
    if (p < text.length && text[p] !== "\n" && (!merchant || text[p] !== " ")) idx.push(k);
  }
  const ends = new Map<number, { cnt: number; pred: number }>();
  const lits = new Map<number, { cnt: number; pred: number }>();
  if (idx.length === 0) return { ends: toLayer(ends), lits: toLayer(lits) };
  const prefix = [0];
  for (const k of idx) prefix.push((prefix.at(-1) ?? 0) + (from.cnt[k] ?? 0));
  const first = from.pos[idx[0] ?? 0] ?? 0;
  const last = (from.pos[idx.at(-1) ?? 0] ?? 0) + bound;
  let lo = 0;
  let hi = 0;
  // The start of o's line, tracked forward (o only grows): one pass over the text in all.
  let scan = first;
  let lineStart = text.lastIndexOf("\n", first) + 1;
  for (let o = text.indexOf(lit, first + 1 - empty); o >= 0 && o <= last; o = text.indexOf(lit, o + 1)) {
    for (; scan < o; scan++) if (text[scan] === "\n") lineStart = scan + 1;
    if (merchant && (text[o - 1] === " " || text[o - 1] === "\n")) continue;
    const floor = Math.max(o - bound, lineStart);
    while (lo < idx.length && (from.pos[idx[lo] ?? 0] ?? 0) < floor) lo++;
    while (hi < idx.length && (from.pos[idx[hi] ?? 0] ?? 0) < o + empty) hi++;
    const n = (prefix[hi] ?? 0) - (prefix[lo] ?? 0);
    if (n === 0) continue;
    const pred = n === 1 ? (idx[lo] ?? -1) : -1;
    addState(ends, o, n, pred);
  }
  const e = toLayer(ends);
  for (let k = 0; k < e.pos.length; k++) addState(lits, (e.pos[k] ?? 0) + lit.length, e.cnt[k] ?? 0, k);
  return { ends: e, lits: toLayer(lits) };
}

/** Free slot at the entry's end: it runs to its line's end. */
function freeToEnd(text: string, from: Layer, slot: Free) {
  const merchant = slot.slot === "merchant";
  const bound = merchant ? MERCHANT_MAX : Math.min(slot.max ?? WILD_MAX, WILD_MAX);
  const out = new Map<number, { cnt: number; pred: number }>();
  let e = -1;
  for (let k = 0; k < from.pos.length; k++) {
    const p = from.pos[k] ?? 0;
    if (p > e) {
      e = text.indexOf("\n", p);
      if (e < 0) e = text.length;
    }
    if (e < p + (slot.opt ? 0 : 1) || e - p > bound || (merchant && (text[p] === " " || text[e - 1] === " ")))
      continue;
    addState(out, e, from.cnt[k] ?? 0, k);
  }
  return toLayer(out);
}

export type EntryResult =
  | { ok: true; values: [SlotKind, string][] }
  | { ok: false; reason: string; several?: boolean };

/** Reads one entry from `text` (matchText of the body): exactly one reading of one place. */
export function readEntry(tokens: Token[], text: string, p: TemplatePattern): EntryResult {
  const starts = [0];
  for (let i = text.indexOf("\n"); i >= 0; i = text.indexOf("\n", i + 1)) starts.push(i + 1);
  const layers: Layer[] = [{ pos: starts, cnt: starts.map(() => 1), pred: starts.map(() => -1) }];
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i] as Token;
    const from = layers[layers.length - 1] as Layer;
    const m = new Map<number, { cnt: number; pred: number }>();
    const step = (len: (s: number) => number) => {
      from.pos.forEach((s, k) => {
        const n = len(s);
        if (n >= 0) addState(m, s + n, from.cnt[k] ?? 0, k);
      });
      layers.push(toLayer(m));
    };
    if ("lit" in t) step((s) => (text.startsWith(t.lit, s) ? t.lit.length : -1));
    else if (FREE.has(t.slot)) {
      const next = tokens[i + 1];
      if (next === undefined) layers.push(freeToEnd(text, from, t));
      else if ("lit" in next) {
        const r = freeThenLit(text, from, t, next.lit);
        layers.push(r.ends, r.lits);
        i++;
      } else return { ok: false, reason: "the template has two values with nothing between them" };
    } else {
      const re = new RegExp(boundedSrc(t.slot, p), "uy");
      step((s) => {
        re.lastIndex = s;
        return re.exec(text)?.[0].length || -1;
      });
    }
    if ((layers.at(-1) as Layer).pos.length === 0) {
      return { ok: false, reason: missAt(tokens, layers.length - 2) };
    }
  }
  const final = layers.at(-1) as Layer;
  let total = 0;
  let at = -1;
  final.pos.forEach((e, k) => {
    if (e === text.length || text[e] === "\n") {
      total += final.cnt[k] ?? 0;
      at = k;
    }
  });
  if (total === 0) return { ok: false, reason: missAt(tokens, tokens.length) };
  if (total > 1) {
    return {
      ok: false,
      several: true,
      reason: "a line the template reads appears more than once, or can be read more than one way",
    };
  }
  // Walk the one reading back: layer j holds where token j-1 ended.
  const bounds: number[] = new Array(layers.length);
  for (let j = layers.length - 1; j >= 0; j--) {
    const layer = layers[j] as Layer;
    bounds[j] = layer.pos[at] ?? 0;
    at = layer.pred[at] ?? -1;
  }
  const values: [SlotKind, string][] = [];
  tokens.forEach((t, i) => {
    if ("slot" in t && EXTRACTED.has(t.slot)) values.push([t.slot, text.slice(bounds[i], bounds[i + 1])]);
  });
  return { ok: true, values };
}

export type MatchResult = { ok: true; values: Extracted } | { ok: false; reason: string };
const refuse = (reason: string): MatchResult => ({ ok: false, reason });

/**
 * Why an entry cannot be matched safely, or null: a free slot must be followed by a literal (or
 * the entry's end) and must not follow another free slot or a value it reads; the literal between
 * a wildcard and a value it reads must hold more than spaces (the value's anchor is never widened).
 */
export function unsafeEntry(tokens: Token[]): string | null {
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i] as Token;
    const next = tokens[i + 1];
    const prev = tokens[i - 1];
    if (!isFree(t) || !("slot" in t)) continue;
    if (next && !("lit" in next)) return `${SLOT_NAME[t.slot]} runs straight into another value`;
    if (prev && "slot" in prev && (isFree(prev) || prev.slot === "merchant"))
      return `${SLOT_NAME[t.slot]} runs straight into another value`;
    if (t.slot !== "wild") continue;
    for (const [lit, value] of [
      [prev, tokens[i - 2]],
      [next, tokens[i + 2]],
    ]) {
      // Only the merchant's extent depends on its anchors: amounts, dates and times are read by
      // their own bounded formats.
      if (lit && "lit" in lit && value && "slot" in value && value.slot === "merchant" && !lit.lit.trim())
        return `the text that varies sits right beside ${SLOT_NAME[value.slot]}, with nothing fixed between them`;
    }
  }
  return null;
}

/**
 * Reads `body` with pattern `p`; `sentIso` (YYYY-MM-DD, the email's sent day) dates a yearless
 * printed date.
 */
export function readWithPattern(p: TemplatePattern, body: string, sentIso: string): MatchResult {
  const exact = readLines(p, body, sentIso);
  // Read by its lines, unless the merchant ran past the end of its sentence ("AMAZON PAY IN E
  // COMMERCE. The Available Credit Limit on …"): then only the anchors may read it.
  if (exact.ok && !runsOn(exact.values.merchant) && !holdsFieldEnd(exact.values.merchant, p.labels))
    return exact;
  // By anchors a long line is read (an HTML alert flattened onto one line: every window read is
  // bounded); a line over MAX_FLAT_LINE never is.
  const source = (p.unwrap ? unwrapText(body) : body)
    .split("\n")
    .map((l) => (l.length > MAX_FLAT_LINE ? "\u0000" : l))
    .join("\n");
  const loose = readByAnchors(p, p.lines.map(entryTokens), source, sentIso);
  if (loose.ok) return loose;
  if (exact.ok) return refuse(`the merchant runs past its sentence, and ${loose.reason}`);
  // Two readings that disagree are named; else the exact reading's reason says which anchor missed.
  return { ok: false, reason: loose.reason.startsWith("two readings") ? loose.reason : exact.reason };
}

/** A merchant holding a sentence's end ("COMMERCE. The …") ran on past its field. */
const runsOn = (merchant: string) => {
  const at = sentenceEnd(merchant, 0, merchant.length);
  return at >= 0 && at < merchant.length - 1;
};

/** Reads `body` line by line with the pattern's exact fixed text. */
function readLines(p: TemplatePattern, body: string, sentIso: string): MatchResult {
  const text = matchText(p.unwrap ? unwrapText(body) : body);
  const values = new Map<SlotKind, string>();
  for (const entry of p.lines) {
    const r = readEntry(entryTokens(entry), text, p);
    if (!r.ok) return r;
    for (const [k, v] of r.values) {
      // A value printed in several places must read the same in each.
      if (values.has(k) && values.get(k)?.trim() !== v.trim())
        return refuse(`the ${k} is printed twice with different values`);
      values.set(k, v);
    }
  }
  const amountText = values.get("amount");
  const amount = amountText === undefined ? null : readAmount(amountText, p.amount);
  if (amount === null || amount <= 0) return refuse("no amount in the learned format");
  const merchant = values.get("merchant")?.trim() ?? "";
  if (merchant === "" || merchant.length > MERCHANT_MAX || !/\p{L}/u.test(merchant))
    return refuse("no merchant where the template expects one");
  let date: string | null = null;
  if (p.date) {
    date = readDate(values.get("date") ?? "", p.date, sentIso);
    if (!date) return refuse("no date in the learned format");
  }
  let time: string | null = null;
  if (values.has("time")) {
    time = readTime(values.get("time") ?? "");
    if (!time) return refuse("no time of day in the learned format");
  }
  return { ok: true, values: { amount, merchant, date, time } };
}
