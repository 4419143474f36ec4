/**
 * Learning what varies: two templates of one sender, learned from two emails, become
 * one whose differing fixed text is a bounded wildcard ("VentureOne" vs "Savor"), or one space or
 * line break where the emails broke a line differently. The values they read must appear in the
 * same order; the fixed text right beside a value is never given up to a wildcard (the value's
 * anchor is never widened); the caller keeps the merge only when it reads both examples exactly.
 */
import { EXTRACTED, entryTokens, unsafeEntry, WILD_MAX, wildMax } from "./match";
import type { PatternLine, TemplatePattern, Token } from "./types";

export type MergeResult = { ok: true; pattern: TemplatePattern } | { ok: false; reason: string };

const NUM = "\u0001";
const WILD = "\u0002";
const SP = "\u0003";

function render(tokens: Token[]): string {
  return tokens
    .map((t) => ("lit" in t ? t.lit : t.slot === "num" ? NUM : t.slot === "sp" ? SP : WILD))
    .join("");
}

const parse = (s: string): Token[] =>
  s
    .split(new RegExp(`([${NUM}${WILD}${SP}])`))
    .filter(Boolean)
    .map((c) =>
      c === NUM
        ? { slot: "num" }
        : c === SP
          ? { slot: "sp" }
          : c === WILD
            ? { slot: "wild", max: WILD_MAX }
            : { lit: c },
    );

const isSpace = (c: string | undefined) => c === " " || c === "\n";

/** A wildcard's bound over the texts it replaces: the largest when one holds a wildcard. */
const boundOf = (...texts: string[]) =>
  texts.some((t) => t.includes(WILD)) ? WILD_MAX : wildMax(Math.max(...texts.map((t) => t.length)));

/** One run of fixed text between two values (or a line edge), merged; null when it cannot be. */
function mergeRun(a: Token[], b: Token[]): Token[] | string {
  const x = render(a);
  const y = render(b);
  if (x === y) return a.map((t) => ("slot" in t && t.slot === "wild" ? { slot: "wild", max: WILD_MAX } : t));
  const n = Math.min(x.length, y.length);
  let p = 0;
  while (p < n && x[p] === y[p]) p++;
  let s = 0;
  while (s < n - p && x[x.length - 1 - s] === y[y.length - 1 - s]) s++;
  const mid = (z: string) => z.slice(p, z.length - s);
  const around = (t: Token) => [...parse(x.slice(0, p)), t, ...parse(x.slice(x.length - s))];
  const [inX, inY] = [mid(x), mid(y)];
  // One space where the other has a line break.
  if ([inX, inY].every((m) => m.length === 1 && isSpace(m))) return around({ slot: "sp" });
  // Words only one email has ("22:36:25 IST from" vs "15:13:27 from"): an optional wildcard.
  const added = inX || inY;
  const z = inX ? x : y;
  if (
    (inX === "" || inY === "") &&
    (p === 0 || isSpace(z[p - 1])) &&
    (isSpace(added.at(-1)) || isSpace(z[p + added.length]))
  )
    return around({ slot: "wild", max: boundOf(added), opt: true });
  // Whole words vary: the wildcard starts after a space and ends before one, and is never empty.
  while (p > 0 && !isSpace(x[p - 1])) p--;
  while (s > 0 && !isSpace(x[x.length - s])) s--;
  while ((mid(x) === "" || mid(y) === "") && p > 0) {
    p--;
    while (p > 0 && !isSpace(x[p - 1])) p--;
  }
  if (mid(x) === "" || mid(y) === "") return "one email has text where the other has none, beside a value";
  return around({ slot: "wild", max: boundOf(mid(x), mid(y)) });
}

/** Splits an entry's tokens at the values it reads: runs of fixed text and the values between. */
function split(tokens: Token[]): { runs: Token[][]; values: Token[] } {
  const runs: Token[][] = [[]];
  const values: Token[] = [];
  for (const t of tokens) {
    if ("slot" in t && EXTRACTED.has(t.slot)) {
      values.push(t);
      runs.push([]);
    } else runs[runs.length - 1]?.push(t);
  }
  return { runs, values };
}

const names = (v: Token[]) => v.map((t) => ("slot" in t ? t.slot : "")).join(", ");

export function mergePatterns(a: TemplatePattern, b: TemplatePattern): MergeResult {
  // The slot reads cents or none, grouped or not: only the decimal mark must agree.
  if (
    a.amount.decimal !== b.amount.decimal ||
    (a.amount.group && b.amount.group && a.amount.group !== b.amount.group)
  )
    return { ok: false, reason: "the two emails print their amounts in different formats" };
  if (a.date !== b.date) return { ok: false, reason: "the two emails print their dates differently" };
  if (a.lines.length !== b.lines.length)
    return { ok: false, reason: "the two emails print their values on a different number of lines" };
  const lines: PatternLine[] = [];
  for (const [i, entry] of a.lines.entries()) {
    const x = split(entryTokens(entry));
    const y = split(entryTokens(b.lines[i] as PatternLine));
    if (names(x.values) !== names(y.values))
      return { ok: false, reason: "the two emails print their values in a different order" };
    const merged: Token[] = [];
    for (const [j, run] of x.runs.entries()) {
      const m = mergeRun(run, y.runs[j] ?? []);
      if (typeof m === "string") return { ok: false, reason: m };
      merged.push(...m);
      const v = x.values[j];
      if (v) merged.push(v);
    }
    const unsafe = unsafeEntry(entryTokens({ before: null, line: merged }));
    if (unsafe) return { ok: false, reason: unsafe };
    lines.push({ before: null, line: merged });
  }
  return {
    ok: true,
    pattern: {
      version: 1,
      lines,
      amount: {
        ...a.amount,
        group: a.amount.group || b.amount.group,
        cents: a.amount.cents || b.amount.cents,
      },
      date: a.date,
      // Read unwrapped when either was learned so; both examples are re-read before it is kept.
      ...(a.unwrap || b.unwrap ? { unwrap: true } : {}),
      ...(a.labels || b.labels ? { labels: [...new Set([...(a.labels ?? []), ...(b.labels ?? [])])] } : {}),
      sources: [...new Set([...(a.sources ?? []), ...(b.sources ?? [])])],
    },
  };
}
