/** Search filters (pure): one Filter type for the GET and POST routes, its checks, CSV cells. */
import type { ValidationIssue } from "../../lib/errors";
import type { Cents } from "../../lib/money";
import { monthSpan } from "../../lib/month";

const MAX_MONTHS = 24;
export const RESULT_CAP = 1000;

export interface Filter {
  from: string;
  to: string;
  q?: string | null;
  companies?: string[] | null;
  categories?: string[] | null;
  institutions?: string[] | null;
  types?: string[] | null;
  minCents?: Cents | null;
  maxCents?: Cents | null;
  includeIgnored?: boolean;
  includeDeleted?: boolean;
}

/** Trimmed, non-empty filter values. */
export const clean = (xs: string[] | null | undefined) =>
  (xs ?? []).map((x) => x.trim()).filter((x) => x.length > 0);

/** True when the filter tests more than the month range and the ignored/deleted flags. */
export const isNarrow = (f: Filter): boolean =>
  [f.companies, f.categories, f.institutions, f.types].some((xs) => clean(xs).length > 0) ||
  Boolean(f.q?.trim()) ||
  f.minCents != null ||
  f.maxCents != null;

/** What is wrong with a filter's range and bounds (empty when nothing is). */
export function rangeIssues(f: Filter, fromLoc: string[], toLoc: string[]): ValidationIssue[] {
  const span = monthSpan(f.from, f.to);
  if (span < 1)
    return [{ loc: toLoc, msg: "must be the same as or after the start month", type: "value_error" }];
  if (span > MAX_MONTHS)
    return [{ loc: toLoc, msg: `range is capped at ${MAX_MONTHS} months`, type: "value_error" }];
  if (f.minCents != null && f.maxCents != null && f.minCents > f.maxCents) {
    return [
      { loc: [fromLoc[0] ?? "query", "max_amount"], msg: "must be at least min_amount", type: "value_error" },
    ];
  }
  return [];
}

const NEEDS_QUOTES = /[",\n\r]/;
/** = + - @ tab CR: a spreadsheet reads a cell starting with one of these as a formula. */
const FORMULA_START = new Set([61, 43, 45, 64, 9, 13]);

/** CSV cell: quoted when needed; formula-looking text is defused for spreadsheet apps. */
export function csvCell(v: unknown): string {
  if (v === null || v === undefined) return "";
  if (typeof v === "number") return String(v); // digits, sign, point: nothing to quote or defuse
  // Called for every cell of an export (120,000 in a year): a char code test, not a regex.
  const s = typeof v === "string" && FORMULA_START.has(v.charCodeAt(0)) ? `'${v}` : String(v);
  return NEEDS_QUOTES.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
}
