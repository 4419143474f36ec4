/**
 * The briefing figure check (pure): every `$` amount and `%` figure the model wrote must trace to
 * a number of the context it was given. Models round, so a figure printed with d decimals (0, 1
 * or 2) matches a context number that rounds to it at d decimals. Percentages are compared as
 * printed (12.5% against 12.5, never against a 0.125 ratio scaled up), signs are ignored (the
 * prose says "down $40" for a -40 delta), and fenced code blocks are not prose, so not checked.
 */
import type { z } from "zod";
import type {
  BriefingFigure as BriefingFigureSchema,
  BriefingValidation as BriefingValidationSchema,
} from "./schemas";

export type BriefingFigure = z.infer<typeof BriefingFigureSchema>;
export type BriefingValidation = z.infer<typeof BriefingValidationSchema>;

const FENCE = /(^|\n)(```|~~~)[^\n]*\n[\s\S]*?(\n\2[^\n]*(?=\n|$)|$)/g;
const DOLLAR = /-?\$\s?\d[\d,]*(?:\.\d+)?/g;
const PERCENT = /-?\d[\d,]*(?:\.\d+)?\s?%/g;
const SNIPPET_CHARS = 40;

/** The text with fenced code blocks blanked (same length, so offsets stay meaningful). */
export function withoutFences(markdown: string): string {
  return markdown.replace(FENCE, (m) => m.replace(/[^\n]/g, " "));
}

const decimalsOf = (raw: string) => {
  const m = /\.(\d+)/.exec(raw);
  return m ? m[1]!.length : 0;
};

const numberOf = (raw: string) => Math.abs(Number(raw.replace(/[$,%\s-]/g, "")));

function snippetAt(text: string, index: number, length: number): string {
  const lo = Math.max(0, index - SNIPPET_CHARS);
  const hi = Math.min(text.length, index + length + SNIPPET_CHARS);
  return `${lo > 0 ? "…" : ""}${text.slice(lo, hi).replace(/\s+/g, " ").trim()}${hi < text.length ? "…" : ""}`;
}

/** Every dollar and percent figure of the prose, in order of appearance. */
export function extractFigures(markdown: string): BriefingFigure[] {
  const text = withoutFences(markdown);
  const found: (BriefingFigure & { at: number; end: number })[] = [];
  for (const [re, kind] of [
    [DOLLAR, "dollar"],
    [PERCENT, "percent"],
  ] as const) {
    for (const m of text.matchAll(re)) {
      // "$5%" is not a thing; a percent inside a dollar match is skipped.
      if (found.some((f) => m.index >= f.at && m.index < f.end)) continue;
      const raw = m[0].trim();
      const end = m.index + m[0].length;
      found.push({
        raw,
        kind,
        value: numberOf(raw),
        snippet: snippetAt(markdown, m.index, m[0].length),
        at: m.index,
        end,
      });
    }
  }
  return found.sort((a, b) => a.at - b.at).map(({ at: _at, end: _end, ...f }) => f);
}

/** Every finite number anywhere in the context (numeric strings included), as magnitudes. */
function contextNumbers(context: unknown, out: Set<number> = new Set()): Set<number> {
  if (typeof context === "number" && Number.isFinite(context)) out.add(Math.abs(context));
  else if (typeof context === "string" && /^-?\d+(\.\d+)?$/.test(context.trim()))
    out.add(Math.abs(Number(context)));
  else if (Array.isArray(context)) for (const v of context) contextNumbers(v, out);
  else if (context && typeof context === "object")
    for (const v of Object.values(context)) contextNumbers(v, out);
  return out;
}

const roundTo = (x: number, d: number) => Math.round((x + Number.EPSILON) * 10 ** d) / 10 ** d;

/** True when some context number rounds to the figure at the figure's own precision (≤ 2 dp). */
export function traces(figure: BriefingFigure, numbers: Iterable<number>): boolean {
  const d = Math.min(2, decimalsOf(figure.raw));
  const want = roundTo(figure.value, d);
  for (const n of numbers) if (Math.abs(roundTo(n, d) - want) < 1e-9) return true;
  return false;
}

export function validateBriefing(markdown: string, context: unknown): BriefingValidation {
  const figures = extractFigures(markdown);
  const numbers = [...contextNumbers(context)];
  const unmatched = figures.filter((f) => !traces(f, numbers));
  return {
    ok: unmatched.length === 0,
    summary: {
      total: figures.length,
      matched: figures.length - unmatched.length,
      unmatched: unmatched.length,
    },
    unmatched,
  };
}
