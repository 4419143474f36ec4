/**
 * Printed amounts of a learned template: every form a typed amount may take in an email
 * (`1,234.56`, `1234.56`, `1 234,56`, `1.234,56`), the slot regex of one form, and its exact
 * reading back into cents (from the digits, never through a float).
 */
import { type Cents, formatCents, parseMoney } from "../../../lib/money";
import { escapeRe } from "./text";
import type { AmountFormat } from "./types";

const FORMATS: AmountFormat[] = [
  { decimal: ".", group: ",", cents: true },
  { decimal: ".", group: "", cents: true },
  { decimal: ",", group: " ", cents: true },
  { decimal: ",", group: ".", cents: true },
  { decimal: ",", group: "", cents: true },
  { decimal: ".", group: "’", cents: true },
  { decimal: ".", group: "'", cents: true },
  { decimal: ".", group: ",", cents: false },
  { decimal: ".", group: "", cents: false },
  { decimal: ",", group: " ", cents: false },
  { decimal: ".", group: "’", cents: false },
];

/** `cents` printed in `f` (null when `f` cannot print it: no cents column for a fractional amount). */
export function printAmount(cents: Cents, f: AmountFormat): string | null {
  if (!f.cents && cents % 100 !== 0) return null;
  const text = formatCents(cents, { decimal: f.decimal, group: f.group });
  return f.cents ? text : text.slice(0, -3);
}

/** Every distinct printed form of `cents`, most specific first. */
export function amountForms(cents: Cents): { text: string; format: AmountFormat }[] {
  const seen = new Set<string>();
  const out: { text: string; format: AmountFormat }[] = [];
  for (const f of FORMATS) {
    const text = printAmount(cents, f);
    if (text !== null && !seen.has(text)) {
      seen.add(text);
      out.push({ text, format: f });
    }
  }
  return out;
}

/**
 * The slot's regex source (no capture groups): grouped or plain whole part, then the cents, which
 * are optional whichever way the example printed them (a bank prints "INR 58" and "INR 1500.00").
 * The whole part may be grouped by the example's thousands mark or by any usual one for its
 * decimal mark (an example under 1,000 shows none: `12.60` then `6’940.50`).
 */
export function amountRegex(f: AmountFormat): string {
  const group = f.group + (f.decimal === "." ? ",’'" : ". ’'");
  const whole = `\\d{1,3}(?:[${escapeRe(group)}]\\d{3})+|\\d+`;
  return `(?:${whole})(?:${escapeRe(f.decimal)}\\d{2})?`;
}

/** Reads a captured amount in format `f` exactly; null when it is not one. */
export function readAmount(text: string, f: AmountFormat): Cents | null {
  if (!new RegExp(`^${amountRegex(f)}$`).test(text)) return null;
  return parseMoney(text, { decimal: f.decimal, exact: true });
}

/** A found amount must stand alone: no digit, or mark-then-digit, glued to either side. */
export function standsAlone(line: string, start: number, end: number): boolean {
  const before = line.slice(Math.max(0, start - 2), start);
  const after = line.slice(end, end + 2);
  return !/\d$|\d[.,]$/.test(before) && !/^\d|^[.,]\d/.test(after);
}
