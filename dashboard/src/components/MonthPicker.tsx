import { monthLabel, shiftMonth } from "../lib/format";

interface Props {
  value: string;
  onChange: (month: string) => void;
  max?: string;
}

export function MonthPicker({ value, onChange, max }: Props) {
  const next = shiftMonth(value, 1);
  return (
    <div className="month-picker">
      <button
        type="button"
        className="btn btn-icon"
        onClick={() => onChange(shiftMonth(value, -1))}
        aria-label="Previous month"
      >
        ‹
      </button>
      <label className="month-field">
        <span className="month-label" aria-hidden="true">
          {monthLabel(value)}
        </span>
        <input
          type="month"
          aria-label="Month"
          value={value}
          max={max}
          onChange={(e) => e.target.value && onChange(e.target.value)}
        />
      </label>
      <button
        type="button"
        className="btn btn-icon"
        onClick={() => onChange(next)}
        disabled={!!max && next > max}
        aria-label="Next month"
      >
        ›
      </button>
    </div>
  );
}
