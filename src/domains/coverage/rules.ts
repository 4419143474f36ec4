/**
 * Coverage rules (pure): each institution's alert cadence from the days it sent alerts, and the
 * capture rate (statement rows an alert email already caught) as buckets.
 */
import { percentile } from "../../lib/money";

export const WINDOW_MONTHS = 6;
/** Fewer distinct alert days than this in the window: no meaningful cadence ("irregular"). */
const MIN_EVENT_DAYS = 4;
const MIN_THRESHOLD_DAYS = 2;
const MIN_DORMANT_DAYS = 14;

type CoverageStatus = "active" | "quiet" | "dormant" | "irregular";

/** Day number of 'YYYY.MM.DD' or 'YYYY-MM-DD' (days since the epoch, calendar arithmetic only). */
export function dayNumber(day: string): number {
  const [y, m, d] = [day.slice(0, 4), day.slice(5, 7), day.slice(8, 10)].map(Number) as [
    number,
    number,
    number,
  ];
  return Math.round(Date.UTC(y, m - 1, d) / 86_400_000);
}

/** 'YYYY.MM.DD' of the same calendar day `months` earlier (clamped to the month's end). */
export function monthsBefore(today: string, months: number): string {
  const [y, m, d] = [today.slice(0, 4), today.slice(5, 7), today.slice(8, 10)].map(Number) as [
    number,
    number,
    number,
  ];
  const last = new Date(Date.UTC(y, m - 1 - months + 1, 0)).getUTCDate();
  const t = new Date(Date.UTC(y, m - 1 - months, Math.min(d, last)));
  const p = (n: number) => String(n).padStart(2, "0");
  return `${t.getUTCFullYear()}.${p(t.getUTCMonth() + 1)}.${p(t.getUTCDate())}`;
}

/**
 * One institution's cadence. `days`: its distinct alert days in the window; `lastSeen`: its latest
 * alert day ever; `today`: 'YYYY-MM-DD' in the configured zone.
 * threshold = max(2, ⌈P90 gap⌉, ⌈2 × median gap⌉) days; dormant cutoff = max(14, 3 × threshold).
 * active: silent no longer than the threshold; quiet: up to the cutoff; dormant: beyond it.
 */
export function cadence(institution: string, days: string[], lastSeen: string | null, today: string) {
  const sorted = [...new Set(days.map(dayNumber))].sort((a, b) => a - b);
  const since = lastSeen ? Math.max(0, dayNumber(today) - dayNumber(lastSeen)) : null;
  const base = {
    institution,
    last_seen_at: lastSeen ? lastSeen.replaceAll(".", "-").slice(0, 10) : null,
    days_since_last_seen: since,
    event_days: sorted.length,
  };
  if (sorted.length < MIN_EVENT_DAYS || since === null) {
    return {
      ...base,
      status: "irregular" as CoverageStatus,
      median_gap_days: null,
      threshold_gap_days: null,
      dormant_cutoff_days: null,
    };
  }
  const gaps = sorted.slice(1).map((d, i) => d - sorted[i]!);
  const median = percentile(gaps, 50)!;
  const threshold = Math.max(MIN_THRESHOLD_DAYS, Math.ceil(percentile(gaps, 90)!), Math.ceil(2 * median));
  const dormant = Math.max(MIN_DORMANT_DAYS, 3 * threshold);
  const status: CoverageStatus = since <= threshold ? "active" : since <= dormant ? "quiet" : "dormant";
  return {
    ...base,
    status,
    median_gap_days: Math.round(median * 10) / 10,
    threshold_gap_days: threshold,
    dormant_cutoff_days: dormant,
  };
}

interface CaptureRow {
  institution: string;
  dir: string;
  caught: number;
  total: number;
}

const rate = (caught: number, total: number) =>
  total > 0 ? Math.round((caught / total) * 10000) / 10000 : 0;

function rollUp<K extends string>(rows: CaptureRow[], key: (r: CaptureRow) => string, name: K) {
  const out = new Map<string, { caught: number; total: number }>();
  for (const r of rows) {
    const b = out.get(key(r)) ?? { caught: 0, total: 0 };
    b.caught += Number(r.caught);
    b.total += Number(r.total);
    out.set(key(r), b);
  }
  return [...out]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(
      ([k, b]) =>
        ({ [name]: k, ...b, rate: rate(b.caught, b.total) }) as Record<K, string> & {
          caught: number;
          total: number;
          rate: number;
        },
    );
}

/** Overall, per institution and per direction (withdrawal, deposit); null without statement rows. */
export function captureSummary(rows: CaptureRow[]) {
  const caught = rows.reduce((n, r) => n + Number(r.caught), 0);
  const total = rows.reduce((n, r) => n + Number(r.total), 0);
  if (total === 0) return null;
  return {
    overall: { caught, total, rate: rate(caught, total) },
    by_institution: rollUp(rows, (r) => r.institution, "institution"),
    by_type: rollUp(rows, (r) => r.dir, "type"),
  };
}
