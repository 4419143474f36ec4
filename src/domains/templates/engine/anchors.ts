/**
 * Reading an alert by its meaning when its layout changed: the same template, read by
 * the words that label or surround each value instead of by its exact lines.
 *
 * The email is flattened: every run of spaces, line breaks and table borders (`|`) is one space
 * (a line break or border is remembered as a hard break), and words are compared lowercased. Each
 * value the template reads is found after the last few words before it in the learned email
 * (`Amount:`, `Název protistrany:`, `spent at`), or before the first words after it, a bounded
 * distance away; a currency code or symbol beside an amount is skipped, never an anchor. Values
 * are looked for independently, so their order may change. The merchant ends where the bank's
 * field or sentence ends: the words that followed it, another field label of the learned email, a
 * line break or border, or a sentence's end (a legal form's period, "a.s.", is not one).
 * Every place an anchor matches is read; places that read different values are a disagreement,
 * and the email is not read (Needs review says why). Time is linear in the email's length: each
 * anchor is found with indexOf and each value read in a window of bounded length.
 */
import { MINOR_UNITS, SYMBOLS } from "../../../ingest/currencies";
import { amountRegex, readAmount } from "./amount";
import { MERCHANT_MAX, NUM_SRC } from "./match";
import { dateRegex, readDate, readTime, TIME_SRC } from "./dates";
import { closesAbbreviation, sentenceEnd } from "./merchant-span";
import type { Extracted, SlotKind, TemplatePattern, Token } from "./types";

/** How far past its anchor a value may start (spaces, a colon, a currency between). */
const GAP = "[^\\p{L}\\p{N}]{0,6}(?:\\p{L}{1,4}(?!\\p{L})\\.?[^\\p{L}\\p{N}]{0,4})?";
/** Anchors are the last (first) few words before (after) a value. */
const WORDS = 3;
/** An anchor matching more often than this is too common to read by. */
const MAX_PLACES = 50;

export interface Flat {
  /** The text with every whitespace/border run as one space. */
  text: string;
  /** The same, lowercased character by character (same length). */
  low: string;
  /** Indexes of spaces that stand for a line break or a table border. */
  hard: Set<number>;
}

const SEP = /[\s\u00a0\u202f\u200b\ufeff|]/u;

export function flatten(body: string): Flat {
  const text: string[] = [];
  const low: string[] = [];
  const hard = new Set<number>();
  let len = 0;
  let sep = false;
  let brk = false;
  for (const ch of body) {
    if (SEP.test(ch)) {
      sep = true;
      if (ch === "\n" || ch === "\r" || ch === "|") brk = true;
      continue;
    }
    if (sep && len > 0) {
      if (brk) hard.add(len);
      text.push(" ");
      low.push(" ");
      len++;
    }
    sep = false;
    brk = false;
    const lower = ch.toLowerCase();
    text.push(ch);
    low.push(lower.length === ch.length ? lower : ch);
    len += ch.length;
  }
  return { text: text.join(""), low: low.join(""), hard };
}

const CURRENCY_MARKS = new Set(SYMBOLS.map(([m]) => m.toLowerCase()));
/** A word that names a currency ("INR", "Rs.", "$", "Kč"), trailing punctuation aside. */
function isCurrency(word: string): boolean {
  const w = word.replace(/^[(]+|[).,:;]+$/g, "");
  if (w === "") return false;
  if (/^\p{L}{3}$/u.test(w) && MINOR_UNITS.has(w.toUpperCase())) return true;
  if (CURRENCY_MARKS.has(w.toLowerCase()) || CURRENCY_MARKS.has(word.toLowerCase())) return true;
  return /^[^\p{L}\p{N}\s]+$/u.test(w) && /[$€£¥₹₩₱₺₽₴₪฿₫₦₵₲₡₸₼₾円元]/u.test(w);
}

/** One way to find a value: the words before it and the words after it (either may be empty). */
export interface Anchor {
  slot: SlotKind;
  pre: string;
  post: string;
  /** A one-word `pre` ("on", "from") right after another value: that value must end just before it. */
  preAfter: SlotKind | null;
  /** A one-word `post` ("on") right before another value: that value must start just after it. */
  postBefore: SlotKind | null;
  /** The value the learned email printed after `post` (a merchant read past it must not hold one). */
  next: SlotKind | null;
  /** With `preAfter`: the last word before that value ("terminación 8050, en"), looked for close by. */
  preFar: string;
}

/** An anchor strong enough to read by: a word of two letters or more (or any CJK character). */
const strong = (s: string) =>
  /\p{L}{2}|[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Thai}]/u.test(s);

const VALUE_SLOTS = new Set<SlotKind>(["amount", "merchant", "date", "time"]);
/** Values whose own format can be checked beside a one-word anchor. */
const CHECKABLE = new Set<SlotKind>(["amount", "date", "time", "num"]);

const hasText = (w: string) => /[\p{L}\p{N}]/u.test(w);

/** The words of literal text, flattened and lowercased, currency words and signs dropped at the value's side. */
function anchorWords(lit: string, side: "pre" | "post"): string {
  const words = flatten(lit).low.split(" ").filter(Boolean);
  if (side === "pre") {
    while (words.length && (isCurrency(words.at(-1) ?? "") || !hasText(words.at(-1) ?? ""))) words.pop();
    const last = words.pop();
    if (last !== undefined) words.push(last.replace(/[+\-−–(]+$/u, ""));
    return words.slice(-WORDS).join(" ");
  }
  const marks = words[0] && !hasText(words[0]) && !isCurrency(words[0]) ? words[0] : "";
  while (words.length && (isCurrency(words[0] ?? "") || !hasText(words[0] ?? ""))) words.shift();
  // A currency further on belongs to the next value ("AMZN., por $ 109.90"): the anchor ends before it.
  const cur = words.findIndex(isCurrency);
  if (cur > 0) words.length = cur;
  // Only a mark follows the value ("BOULANGERIE : 8,10"): the mark is its end.
  return words.length ? words.slice(0, WORDS).join(" ") : marks;
}

/**
 * The fixed text beside token `i` going `dir` (-1: back, 1: on), spaces (`sp`) as " " unless `litOnly`;
 * and the index of the token it stops at.
 */
function beside(tokens: Token[], i: number, dir: -1 | 1, litOnly = false): [string, number] {
  let text = "";
  let j = i + dir;
  for (; j >= 0 && j < tokens.length; j += dir) {
    const x = tokens[j] as Token;
    const piece = "lit" in x ? x.lit : x.slot === "sp" && !litOnly ? " " : null;
    if (piece === null) break;
    text = dir < 0 ? piece + text : text + piece;
  }
  return [text, j];
}

/** The anchors of a pattern's entries: for every value it reads, the text around it. */
export function anchorsOf(entries: Token[][]): Anchor[] {
  const out: Anchor[] = [];
  for (const tokens of entries) {
    tokens.forEach((t, i) => {
      if (!("slot" in t) || !VALUE_SLOTS.has(t.slot)) return;
      const [pre, j] = beside(tokens, i, -1);
      const [post, k] = beside(tokens, i, 1);
      const a = anchorWords(pre, "pre");
      const b = anchorWords(post, "post");
      const prev = tokens[j];
      const next = tokens[k];
      const neighbour = (x: Token | undefined, w: string) =>
        x && "slot" in x && CHECKABLE.has(x.slot) && w.split(" ").filter(hasText).length <= 1 ? x.slot : null;
      const preAfter = neighbour(prev, a);
      const far = preAfter ? beside(tokens, j, -1, true)[0] : "";
      const preFar = anchorWords(far, "pre").split(" ").at(-1) ?? "";
      out.push({
        slot: t.slot,
        pre: a,
        post: b,
        preAfter,
        postBefore: neighbour(next, b),
        next: next && "slot" in next && CHECKABLE.has(next.slot) ? next.slot : null,
        preFar: strong(preFar) ? preFar : "",
      });
    });
  }
  return out;
}

const isWordChar = (c: string | undefined) => c !== undefined && /[\p{L}\p{N}]/u.test(c);

/** Where `needle` occurs in `low` as whole words (at most MAX_PLACES places; null: more). */
function places(low: string, needle: string, from = 0, to = low.length): number[] | null {
  const out: number[] = [];
  if (!needle) return out;
  for (let at = low.indexOf(needle, from); at >= 0 && at < to; at = low.indexOf(needle, at + 1)) {
    if (isWordChar(needle[0]) && isWordChar(low[at - 1])) continue;
    if (isWordChar(needle.at(-1)) && isWordChar(low[at + needle.length])) continue;
    out.push(at);
    if (out.length > MAX_PLACES) return null;
  }
  return out;
}

function valueSrc(slot: SlotKind, p: TemplatePattern): string | null {
  // Read by anchors, an amount learned with its cents keeps them ("4" beside an anchor is no amount).
  if (slot === "amount")
    return p.amount.cents ? amountRegex(p.amount).replace(/\)\?$/, ")") : amountRegex(p.amount);
  if (slot === "date") return p.date ? dateRegex(p.date) : null;
  if (slot === "time") return TIME_SRC;
  if (slot === "num") return NUM_SRC;
  return null;
}

/** The value of kind `slot` that ends just before `at` (a bounded look back), or null. */
function valueEndsAt(slot: SlotKind, p: TemplatePattern, f: Flat, at: number): string | null {
  const src = valueSrc(slot, p);
  return (
    (src && new RegExp(`(${src})${GAP}$`, "u").exec(f.text.slice(Math.max(0, at - 40), at))?.[1]) || null
  );
}

/** A reading and the value printed just before its anchor (checked against that value's reading). */
const SEP_PREV = "\u0001";

/** Whether a value of kind `slot` starts just after `at`. */
function valueStartsAt(slot: SlotKind, p: TemplatePattern, f: Flat, at: number): boolean {
  const src = valueSrc(slot, p);
  return !!src && new RegExp(`^${GAP}(?:${src})`, "u").test(f.text.slice(at, at + 40));
}

/** Reads the value after (or before) each place its anchor matches; every distinct reading. */
function readAnchor(a: Anchor, f: Flat, p: TemplatePattern, labels: string[]): Set<string> | null {
  const found = new Set<string>();
  const src = valueSrc(a.slot, p);
  const preOk = strong(a.pre) || (a.pre !== "" && a.preAfter !== null);
  const postOk = strong(a.post) || (a.post !== "" && a.postBefore !== null);
  if (a.slot === "merchant" ? !preOk : !preOk && !postOk) return null;
  if (preOk) {
    const after = src ? new RegExp(`^${GAP}(${src})(?![\\p{Script=Latin}\\d]|[.,]\\d)`, "u") : null;
    const readFrom = (pre: string, alt = false): boolean => {
      const at = places(f.low, pre);
      if (!at) return false;
      for (const o of at) {
        if (alt && capitalsAmidLower(f.text, o, pre)) continue;
        const prev = a.preAfter ? valueEndsAt(a.preAfter, p, f, o) : "";
        if (prev === null) continue;
        if (a.preFar && !f.low.slice(Math.max(0, o - 60), o).includes(a.preFar)) continue;
        const e = o + pre.length;
        if (a.slot === "merchant") {
          const m = merchantAt(f, e, a, labels, p);
          if (m) found.add(prev ? `${m}${SEP_PREV}${prev}` : m);
          continue;
        }
        const hit = after?.exec(f.text.slice(e, e + 64));
        if (hit?.[1]) found.add(prev ? `${hit[1]}${SEP_PREV}${prev}` : hit[1]);
      }
      return true;
    };
    if (!readFrom(a.pre)) return null;
    // A merchant's place word may change from alert to alert ("spent at X" / "spent on X"): only
    // when the learned one reads nothing, each other place word of its language group is tried.
    // A lone place word is tried only where it is held to the value before it.
    if (found.size === 0 && a.slot === "merchant" && (a.pre.includes(" ") || a.preAfter))
      for (const alt of placeVariants(a.pre)) readFrom(alt, true);
    if (found.size > 0 || !postOk) return found;
  }
  if (!src) return null;
  const before = new RegExp(`(?<![\\d.,])(${src})${GAP}$`, "u");
  const readBefore = (post: string): boolean => {
    const at = places(f.low, post);
    if (!at) return false;
    for (const o of at) {
      if (a.postBefore && !valueStartsAt(a.postBefore, p, f, o + post.length)) continue;
      const hit = before.exec(f.text.slice(Math.max(0, o - 48), o));
      if (hit?.[1]) found.add(hit[1]);
    }
    return true;
  };
  if (!readBefore(a.post)) return null;
  // "58 spent at …" learned, "250 spent on …" printed: the merchant's place word changed.
  if (found.size === 0 && a.post.includes(" ")) for (const alt of placeVariants(a.post)) readBefore(alt);
  return found;
}

/**
 * Words that put a merchant somewhere ("at", "on", "in"), by language: a bank writes one or another
 * of its language's before the same field. Never words of direction ("to", "from"): those change
 * what the money did.
 */
const PLACE_WORDS: readonly (readonly string[])[] = [
  ["at", "on", "in", "@"],
  ["à", "chez", "sur", "@"],
  ["en", "a", "@"],
  ["bei", "in", "an", "@"],
  ["em", "na", "no", "@"],
  ["u", "v", "ve", "na", "@"],
  ["w", "na", "u", "@"],
  ["presso", "da", "in", "su", "@"],
  ["bij", "in", "op", "@"],
];

/**
 * A place word printed in capitals where the bank's own words around it are not ("paid at ON MART":
 * the "ON" is the merchant's): never the bank's sentence word, so never tried as one.
 */
function capitalsAmidLower(text: string, o: number, pre: string): boolean {
  const cut = pre.lastIndexOf(" ") + 1;
  const word = text.slice(o + cut, o + pre.length);
  if (!/\p{L}/u.test(word) || word !== word.toUpperCase()) return false;
  const around = cut > 0 ? text.slice(o, o + cut) : text.slice(Math.max(0, o - 24), o);
  return /\p{Ll}/u.test(around);
}

/** The same anchor with its last word, a place word, replaced by each other of its group. */
function placeVariants(pre: string): string[] {
  const cut = pre.lastIndexOf(" ");
  const head = pre.slice(0, cut + 1);
  const last = pre.slice(cut + 1);
  const out = new Set<string>();
  for (const group of PLACE_WORDS)
    if (group.includes(last)) for (const w of group) if (w !== last) out.add(`${head}${w}`);
  return [...out];
}

/** Every distinct date the email prints in the template's format (for a date no anchor reads). */
function datesAnywhere(f: Flat, p: TemplatePattern): Set<string> {
  const out = new Set<string>();
  const src = valueSrc("date", p);
  if (!src) return out;
  const re = new RegExp(`(?<![\\p{L}\\d/.-])(${src})(?![\\p{L}\\d]|[/-]\\d)`, "gu");
  for (const m of f.text.slice(0, 20_000).matchAll(re)) {
    if (m[1]) out.add(m[1]);
    if (out.size > 3) break;
  }
  return out;
}

/** The merchant starting after `from`: up to the first end of its field or sentence. */
function merchantAt(f: Flat, from: number, a: Anchor, labels: string[], p: TemplatePattern): string | null {
  let s = from;
  while (s < f.text.length && /[^\p{L}\p{N}(&*"'“„]/u.test(f.text[s] ?? "")) s++;
  const limit = s + MERCHANT_MAX + 1;
  const ends: number[] = [];
  let byPost = false;
  if (a.post) {
    for (const o of places(f.low, a.post, s + 1, limit) ?? []) {
      if (a.postBefore && !valueStartsAt(a.postBefore, p, f, o + a.post.length)) continue;
      ends.push(o);
      byPost = true;
      break;
    }
  }
  // A bank that wraps its lines (p.unwrap) breaks them anywhere: when the words that followed the
  // merchant are found, they end it, not a break (or border) in between.
  if (!(p.unwrap && byPost))
    for (let i = s; i < Math.min(limit, f.text.length); i++) if (f.hard.has(i)) ends.push(i);
  for (const label of labels) {
    if (label === a.pre || a.pre.endsWith(label)) continue;
    const o = places(f.low, label, s + 1, limit)?.[0];
    if (o !== undefined) ends.push(o);
  }
  const stop = sentenceEnd(f.text, s, MERCHANT_MAX + 1);
  if (stop >= 0) ends.push(stop);
  if (f.text.length <= limit) ends.push(f.text.length);
  if (ends.length === 0) return null;
  let e = Math.min(...ends);
  while (e > s && /[\s,;:–—#*$-]/u.test(f.text[e - 1] ?? "")) e--;
  while (e > s && /[.!?]/.test(f.text[e - 1] ?? "") && !closesAbbreviation(f.text, e - 1)) e--;
  const m = f.text.slice(s, e).trim();
  if (!m || m.length > MERCHANT_MAX || !/\p{L}/u.test(m)) return null;
  // Its following words were not found before the end taken: a name holding the value that
  // followed it ("AA lae 2026-10-12") ran on past them.
  if (a.next && !byPost) {
    const src = valueSrc(a.next, p);
    if (src && new RegExp(src, "u").test(m)) return null;
  }
  return m;
}

/** Whether a merchant read by lines holds the start of another field or of the line that followed it. */
export function holdsFieldEnd(merchant: string, labels: string[] | undefined): boolean {
  if (!labels?.length) return false;
  const low = flatten(merchant).low;
  return labels.some((l) => (places(low, l) ?? [0]).some((at) => at > 0));
}

/** The field labels of an email ("Amount:", "Název protistrany:"), lowercased: where fields end. */
export function labelsOf(body: string): string[] {
  const out = new Set<string>();
  for (const line of body.split(/\r?\n|\|/)) {
    // A colon between digits is a time of day ("… 5.9.2026 14:05"), not a label's.
    const m = /^\s*(\p{L}[\p{L}\p{N} .&/'()-]{0,38}?)\s*:(?!\d)/u.exec(line);
    if (m?.[1] && strong(m[1])) out.add(`${flatten(m[1]).low}:`);
    if (out.size >= 40) break;
  }
  return [...out];
}

export type LooseResult = { ok: true; values: Extracted } | { ok: false; reason: string };
const refuse = (reason: string): LooseResult => ({ ok: false, reason });

/**
 * Reads `body` by the anchors of pattern `p` (entries' tokens given), or says why not. `sentIso`
 * dates a yearless printed date.
 */
export function readByAnchors(
  p: TemplatePattern,
  entries: Token[][],
  body: string,
  sentIso: string,
): LooseResult {
  const f = flatten(body);
  const labels = p.labels ?? [];
  const read = new Map<string, Set<string>>();
  const anchors = anchorsOf(entries);
  const amounts = anchors.filter((a) => a.slot === "amount").length;
  const missed = new Set<string>();
  const checks: [SlotKind, SlotKind][] = [];
  for (const a of anchors) {
    const got = readAnchor(a, f, p, labels);
    if (!got || got.size === 0) {
      // A value printed in several places must read in each (never from the wrong one).
      if (a.slot === "amount" && amounts > 1) missed.add("amount");
      continue;
    }
    const had = read.get(a.slot) ?? new Set<string>();
    for (const v of got) had.add(a.slot === "merchant" ? v : v.replace(/\s+/g, " "));
    read.set(a.slot, had);
    if (a.preAfter) checks.push([a.slot, a.preAfter]);
  }
  // A reading found after "at" behind a number holds only when that number is the value read
  // there ("spent $5.00 at KIOSK", not "2026 at 3:45 PM").
  const plain = (slot: string) => new Set([...(read.get(slot) ?? [])].map((v) => v.split(SEP_PREV)[0] ?? v));
  for (const [slot, after] of checks) {
    const want = plain(after);
    const kept = [...(read.get(slot) ?? [])].filter((v) => {
      const [, prev] = v.split(SEP_PREV);
      if (prev === undefined || (after !== "amount" && after !== "date")) return true;
      return [...want].some((w) =>
        after === "amount"
          ? readAmount(w, p.amount) === readAmount(prev, p.amount)
          : readDate(w, p.date ?? "", sentIso) === readDate(prev, p.date ?? "", sentIso),
      );
    });
    read.set(slot, new Set(kept));
  }
  for (const slot of read.keys()) read.set(slot, plain(slot));
  const one = (slot: string): string | null | "several" => {
    const got = read.get(slot);
    if (!got || got.size === 0) return null;
    if (got.size > 1) {
      const norm = new Set([...got].map((v) => (slot === "merchant" ? v.toLowerCase() : v)));
      if (norm.size > 1) return "several";
    }
    return [...got][0] ?? null;
  };
  const disagree = (slot: string) =>
    `two readings of the ${slot} disagree (${[...(read.get(slot) ?? [])]
      .slice(0, 3)
      .map((v) => `"${v}"`)
      .join(" and ")})`;
  if (missed.has("amount"))
    return refuse("the amount is not found in every place the learned email printed it");
  const amountText = one("amount");
  if (amountText === "several") return refuse(disagree("amount"));
  const amount = amountText ? readAmount(amountText, p.amount) : null;
  if (amount === null || amount <= 0)
    return refuse("no amount beside the words that label it in the learned email");
  const merchant = one("merchant");
  if (merchant === "several") return refuse(disagree("merchant"));
  if (!merchant) return refuse("no merchant beside the words that label it in the learned email");
  let date: string | null = null;
  if (p.date) {
    // No anchor reads the date (it opens a line, a time follows it): the one date the email prints.
    if (!read.has("date")) read.set("date", datesAnywhere(f, p));
    const texts = [...(read.get("date") ?? [])];
    if (new Set(texts.map((x) => readDate(x, p.date ?? "", sentIso))).size > 1)
      return refuse(disagree("date"));
    date = texts[0] ? readDate(texts[0], p.date, sentIso) : null;
    if (!date) return refuse("no date beside the words that label it in the learned email");
  }
  const t = one("time");
  const time = t && t !== "several" ? readTime(t) : null;
  return { ok: true, values: { amount, merchant, date, time } };
}
