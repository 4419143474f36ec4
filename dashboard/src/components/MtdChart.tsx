import { useId } from "react";
import type { JournalDay } from "../api/types";
import { daysInMonth, money } from "../lib/format";

interface Props {
  month: string;
  days: JournalDay[];
  ceiling: number | null;
}

const W = 640;
const H = 150;
const PAD = { l: 8, r: 8, t: 14, b: 20 };

/** Running month-to-date spending, day by day, against the monthly budget ceiling. */
export function MtdChart({ month, days, ceiling }: Props) {
  const clip = useId();
  const n = daysInMonth(month);
  const byDay = new Map(days.map((d) => [Number(d.date.slice(8, 10)), d.mtd_total]));
  const last = Math.max(0, ...byDay.keys());
  const points: [number, number][] = [];
  let running = 0;
  for (let d = 1; d <= last; d++) {
    running = byDay.get(d) ?? running;
    points.push([d, running]);
  }
  const top = Math.max(ceiling ?? 0, running, 1) * 1.12;
  const x = (d: number) => PAD.l + ((d - 1) / Math.max(1, n - 1)) * (W - PAD.l - PAD.r);
  const y = (v: number) => H - PAD.b - (v / top) * (H - PAD.t - PAD.b);
  const line = points.map(([d, v], i) => `${i ? "L" : "M"}${x(d).toFixed(1)},${y(v).toFixed(1)}`).join("");
  const area = points.length ? `${line}L${x(last).toFixed(1)},${y(0)}L${x(1).toFixed(1)},${y(0)}Z` : "";
  const over = ceiling !== null && running > ceiling;
  const desc = `Month-to-date spending reaches ${money(running)} by day ${last}${
    ceiling !== null ? ` against a ceiling of ${money(ceiling)}` : ""
  }.`;
  return (
    <figure className="mtd-chart">
      <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-label={desc} preserveAspectRatio="none">
        <path d={area} className="mtd-area" />
        <path d={line} className="mtd-line" vectorEffect="non-scaling-stroke" />
        {over && ceiling !== null && (
          <>
            <clipPath id={clip}>
              <rect x={0} y={0} width={W} height={y(ceiling)} />
            </clipPath>
            <path
              d={line}
              className="mtd-line mtd-over"
              clipPath={`url(#${clip})`}
              vectorEffect="non-scaling-stroke"
            />
          </>
        )}
        {ceiling !== null && (
          <line
            x1={PAD.l}
            x2={W - PAD.r}
            y1={y(ceiling)}
            y2={y(ceiling)}
            className="mtd-ceiling"
            vectorEffect="non-scaling-stroke"
          />
        )}
        <line
          x1={PAD.l}
          x2={W - PAD.r}
          y1={y(0)}
          y2={y(0)}
          className="mtd-axis"
          vectorEffect="non-scaling-stroke"
        />
      </svg>
      <figcaption className="mtd-legend">
        <span className="legend-line" /> Month to date
        {ceiling !== null && (
          <>
            <span className="legend-ceiling" /> Budget ceiling {money(ceiling, { whole: true })}
          </>
        )}
        <span className="mtd-days">1 – {n}</span>
      </figcaption>
    </figure>
  );
}
