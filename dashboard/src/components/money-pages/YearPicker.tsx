// The year a page shows: ?year=YYYY, or this year in the configured time zone.
import { useApp } from "../../lib/app";
import { currentMonth } from "../../lib/format";
import { navigate, useLocation } from "../../lib/router";

export function useYearParam(): { year: number; thisYear: number; setYear: (y: number) => void } {
  const { config } = useApp();
  const { path, query } = useLocation();
  const thisYear = Number(currentMonth(config.timezone).slice(0, 4));
  const q = Number(query.get("year"));
  const year = Number.isInteger(q) && q >= 2000 && q <= 2100 ? q : thisYear;
  const setYear = (y: number) => {
    const next = new URLSearchParams(query);
    if (y === thisYear) next.delete("year");
    else next.set("year", String(y));
    const s = next.toString();
    navigate(path + (s ? `?${s}` : ""));
  };
  return { year, thisYear, setYear };
}

export function YearPicker({ value, onChange }: { value: number; onChange: (y: number) => void }) {
  return (
    <div className="month-picker" data-testid="year-picker">
      <button
        type="button"
        className="btn btn-icon"
        onClick={() => onChange(value - 1)}
        aria-label="Previous year"
      >
        ‹
      </button>
      <strong className="year-label" aria-live="polite">
        {value}
      </strong>
      <button
        type="button"
        className="btn btn-icon"
        onClick={() => onChange(value + 1)}
        aria-label="Next year"
      >
        ›
      </button>
    </div>
  );
}

export const MONTH_SHORT = [
  "Jan",
  "Feb",
  "Mar",
  "Apr",
  "May",
  "Jun",
  "Jul",
  "Aug",
  "Sep",
  "Oct",
  "Nov",
  "Dec",
];

/** Twelve (or fewer) monthly amounts as labelled columns; labels and values, not colour alone. */
export function MonthColumns({
  values,
  labels = MONTH_SHORT,
  testId,
  format,
}: {
  values: readonly number[];
  labels?: readonly string[];
  testId?: string;
  format: (n: number) => string;
}) {
  const max = Math.max(1, ...values);
  return (
    <ol className="month-cols" data-testid={testId}>
      {values.map((v, i) => (
        <li key={labels[i] ?? i} title={`${labels[i]}: ${format(v)}`}>
          <span className="month-col-value">{v ? format(v) : "—"}</span>
          <span className="month-col-track" aria-hidden="true">
            <span className="month-col-fill" style={{ height: `${(v / max) * 100}%` }} />
          </span>
          <span className="month-col-label">{labels[i]}</span>
        </li>
      ))}
    </ol>
  );
}
