/**
 * Reading an email with a learned template. Never guesses: every value line must match exactly
 * one body line, a merchant must read the same whether the slot is short or long, and every value
 * must read back in its learned format; anything else is no match (the email is quarantined).
 */
import { amountRegex, readAmount } from "./amount";
import { dateRegex, readDate, readTime, TIME_SRC } from "./dates";
import { bodyLines, escapeRe } from "./text";
import type { Extracted, PatternLine, SlotKind, TemplatePattern, Token } from "./types";

const NUM_SRC = "\\d(?:[\\d,.]*\\d)?";

function slotSrc(slot: SlotKind, p: TemplatePattern, greedy: boolean): string {
  switch (slot) {
    case "amount":
      return `(${amountRegex(p.amount)})`;
    case "merchant":
      return greedy ? "(\\S(?:.*\\S)?)" : "(\\S(?:.*?\\S)?)";
    case "date":
      return `(${dateRegex(p.date ?? "") ?? "(?!)"})`;
    case "time":
      return `(${TIME_SRC})`;
    case "num":
      return NUM_SRC;
  }
}

function lineRegex(tokens: Token[], p: TemplatePattern, greedy: boolean): RegExp {
  const src = tokens.map((t) => ("lit" in t ? escapeRe(t.lit) : slotSrc(t.slot, p, greedy))).join("");
  return new RegExp(`^${src}$`, "u");
}

const captured = (tokens: Token[]) =>
  tokens.flatMap((t) => ("slot" in t && t.slot !== "num" ? [t.slot] : []));

export type MatchResult = { ok: true; values: Extracted } | { ok: false; reason: string };

/** The slot values of one pattern line, or why it did not match. */
function readLine(
  entry: PatternLine,
  lines: string[],
  p: TemplatePattern,
): { ok: true; values: [SlotKind, string][] } | { ok: false; reason: string } {
  const lazy = lineRegex(entry.line, p, false);
  const before = entry.before ? lineRegex(entry.before, p, false) : null;
  const hits = lines.flatMap((l, i) =>
    lazy.test(l) && (!before || (i > 0 && before.test(lines[i - 1] ?? ""))) ? [i] : [],
  );
  if (hits.length === 0)
    return { ok: false, reason: "a line the template reads is missing or worded differently" };
  if (hits.length > 1) return { ok: false, reason: "a line the template reads appears more than once" };
  const text = lines[hits[0] ?? 0] ?? "";
  const short = lazy.exec(text)?.slice(1) ?? [];
  const long = lineRegex(entry.line, p, true).exec(text)?.slice(1) ?? [];
  if (short.join("\u0000") !== long.join("\u0000")) {
    return { ok: false, reason: "the line can be read more than one way" };
  }
  return { ok: true, values: captured(entry.line).map((slot, i) => [slot, short[i] ?? ""]) };
}

/**
 * Reads `body` with pattern `p`; `sentIso` (YYYY-MM-DD, the email's sent day) dates a yearless
 * printed date.
 */
export function readWithPattern(p: TemplatePattern, body: string, sentIso: string): MatchResult {
  const lines = bodyLines(body);
  const values = new Map<SlotKind, string>();
  for (const entry of p.lines) {
    const r = readLine(entry, lines, p);
    if (!r.ok) return r;
    for (const [k, v] of r.values) {
      // A value printed in several places must read the same in each.
      if (values.has(k) && values.get(k)?.trim() !== v.trim()) {
        return { ok: false, reason: `the ${k} is printed twice with different values` };
      }
      values.set(k, v);
    }
  }
  const amountText = values.get("amount");
  const amount = amountText === undefined ? null : readAmount(amountText, p.amount);
  if (amount === null || amount <= 0) return { ok: false, reason: "no amount in the learned format" };
  const merchant = values.get("merchant")?.trim() ?? "";
  if (merchant === "" || merchant.length > 200 || !/\p{L}/u.test(merchant)) {
    return { ok: false, reason: "no merchant where the template expects one" };
  }
  let date: string | null = null;
  if (p.date) {
    date = readDate(values.get("date") ?? "", p.date, sentIso);
    if (!date) return { ok: false, reason: "no date in the learned format" };
  }
  let time: string | null = null;
  if (values.has("time")) {
    time = readTime(values.get("time") ?? "");
    if (!time) return { ok: false, reason: "no time of day in the learned format" };
  }
  return { ok: true, values: { amount, merchant, date, time } };
}
