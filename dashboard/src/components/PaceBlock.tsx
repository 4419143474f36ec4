import type { Summary } from "../api/types";
import { money } from "../lib/format";
import { Money } from "./Money";

type Pace = NonNullable<Summary["pace"]>;

const QUALITY: Record<string, string> = {
  forecast: "Projected from your usual spending curve",
  historical: "Projected from a typical month",
  limited: "Rough projection: little history yet",
};

/** Where this month stands on day N, and where it is heading. */
export function PaceBlock({ pace }: { pace: Pace }) {
  const proj = pace.projected_month_total;
  const scale =
    Math.max(pace.month_to_date, proj ?? 0, pace.projected_upper ?? 0, pace.typical_to_date ?? 0, 1) * 1.05;
  const pos = (v: number) => `${Math.min(100, (v / scale) * 100)}%`;
  const vsTypical = pace.typical_to_date !== null ? pace.month_to_date - pace.typical_to_date : null;
  return (
    <div className="card" data-testid="pace">
      <h2>
        Pace{" "}
        <span className="muted small">
          day {pace.day_of_month} of {pace.days_in_month}
        </span>
      </h2>
      <div className="stats stats-3">
        <div className="stat">
          <span className="stat-label">So far</span>
          <Money value={pace.month_to_date} className="stat-value" />
          <span className="stat-sub">last month by now: {money(pace.previous_to_date)}</span>
        </div>
        <div className="stat">
          <span className="stat-label">Typical by now</span>
          <Money value={pace.typical_to_date} className="stat-value" />
          <span className={`stat-sub ${vsTypical !== null && vsTypical > 0 ? "text-danger" : ""}`}>
            {vsTypical === null ? "not enough history" : `${money(vsTypical, { signed: true })} vs typical`}
          </span>
        </div>
        <div className="stat">
          <span className="stat-label">Projected month</span>
          <Money value={proj} className="stat-value" />
          <span className="stat-sub">
            {pace.projected_lower !== null && pace.projected_upper !== null
              ? `likely ${money(pace.projected_lower, { whole: true })} – ${money(pace.projected_upper, { whole: true })}`
              : "—"}
          </span>
        </div>
      </div>
      <div className="pace-track" aria-hidden="true">
        {pace.projected_lower !== null && pace.projected_upper !== null && (
          <span
            className="pace-range"
            style={{
              left: pos(pace.projected_lower),
              width: `calc(${pos(pace.projected_upper)} - ${pos(pace.projected_lower)})`,
            }}
          />
        )}
        <span className="pace-fill" style={{ width: pos(pace.month_to_date) }} />
        {pace.typical_to_date !== null && (
          <span className="pace-typical" style={{ left: pos(pace.typical_to_date) }} />
        )}
      </div>
      {pace.forecast_quality && <p className="muted small">{QUALITY[pace.forecast_quality]}.</p>}
    </div>
  );
}
