/** Month helpers: months are `YYYY-MM`; a month's rows are a DateFileName prefix range `YYYY.MM.`. */
export const MONTH_RE = /^\d{4}-(0[1-9]|1[0-2])$/;

/** Inclusive-exclusive DateFileName bounds of a month ('/' sorts right after '.'). */
export function monthBounds(month: string): { lo: string; hi: string } {
  const [y, m] = month.split("-");
  return { lo: `${y}.${m}.`, hi: `${y}.${m}/` };
}

/** Bounds spanning `from`..`to` inclusive. */
export function rangeBounds(from: string, to: string): { lo: string; hi: string } {
  return { lo: monthBounds(from).lo, hi: monthBounds(to).hi };
}

export function addMonths(month: string, n: number): string {
  const [y, m] = month.split("-").map(Number) as [number, number];
  const idx = y * 12 + (m - 1) + n;
  return `${Math.floor(idx / 12)}-${String((idx % 12) + 1).padStart(2, "0")}`;
}

/** Number of months from `from` to `to` inclusive (0 or less when reversed). */
export function monthSpan(from: string, to: string): number {
  const [fy, fm] = from.split("-").map(Number) as [number, number];
  const [ty, tm] = to.split("-").map(Number) as [number, number];
  return (ty - fy) * 12 + (tm - fm) + 1;
}

/** `YYYY-MM` of a DateFileName (`YYYY.MM.DD_…`). */
export function monthOfDateFileName(dfn: string): string {
  return `${dfn.slice(0, 4)}-${dfn.slice(5, 7)}`;
}
