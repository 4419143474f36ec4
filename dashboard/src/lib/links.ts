// Where a click on a category, merchant, month or amount leads: the search page with that filter.
import { shiftMonth } from "./format";

/** `/search` over `months` months ending `to` (default 12), with the given filters. */
export function searchFor(
  thisMonth: string,
  filters: Record<string, string | undefined>,
  range: { from?: string; to?: string } = {},
): string {
  const to = range.to ?? thisMonth;
  const q = new URLSearchParams({ from: range.from ?? shiftMonth(to, -11), to });
  for (const [k, v] of Object.entries(filters)) if (v) q.set(k, v);
  return `/search?${q.toString()}`;
}

const MONTHS = [
  "january",
  "february",
  "march",
  "april",
  "may",
  "june",
  "july",
  "august",
  "september",
  "october",
  "november",
  "december",
];

/** "2026-10", "10/2026", "oct", "October 2025" → YYYY-MM (a bare month name is its latest past occurrence). */
export function parseMonth(text: string, thisMonth: string): string | null {
  const t = text.trim().toLowerCase();
  let m = t.match(/^(\d{4})[-/](\d{1,2})$/);
  if (m) return valid(Number(m[1]), Number(m[2]));
  m = t.match(/^(\d{1,2})[-/](\d{4})$/);
  if (m) return valid(Number(m[2]), Number(m[1]));
  m = t.match(/^([a-z]{3,9})\.?(?:\s+(\d{4}))?$/);
  if (!m) return null;
  const word = m[1] as string;
  const idx = MONTHS.findIndex((name) => name.startsWith(word));
  if (idx < 0) return null;
  const [ty, tm] = thisMonth.split("-").map(Number) as [number, number];
  const year = m[2] ? Number(m[2]) : idx + 1 > tm ? ty - 1 : ty;
  return valid(year, idx + 1);
}

function valid(y: number, mo: number): string | null {
  if (mo < 1 || mo > 12 || y < 1990 || y > 2100) return null;
  return `${y}-${String(mo).padStart(2, "0")}`;
}

/** "$1,234.50", "63", "63.2" → 63.2 (a positive amount with at most cents), else null. */
export function parseAmount(text: string): number | null {
  const t = text.trim().replace(/^\$/, "").replaceAll(",", "");
  if (!/^\d+(\.\d{1,2})?$/.test(t)) return null;
  const n = Number(t);
  return n > 0 ? n : null;
}
