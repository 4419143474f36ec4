import type { ReactNode } from "react";
import { money } from "../lib/format";
import { Link } from "../lib/router";

export interface BarItem {
  key: string;
  label: ReactNode;
  value: number;
  /** Drawn as a thin marker (for example, last month's amount). */
  compare?: number;
  note?: ReactNode;
  /** Where a click on the row leads (the matching search). */
  href?: string;
}

/** Horizontal bars in plain CSS: label, bar, amount — every value is written out, never colour alone. */
export function Bars({ items, compareLabel }: { items: BarItem[]; compareLabel?: string }) {
  const max = Math.max(1, ...items.map((i) => Math.max(i.value, i.compare ?? 0)));
  return (
    <ul className="bars">
      {items.map((i) => {
        const compared = i.compare !== undefined && i.compare > 0 && compareLabel;
        return (
          <li key={i.key} className={`bar-row${i.href ? " bar-link" : ""}`}>
            <div className="bar-head">
              <span className="bar-label">
                {i.href ? (
                  <Link to={i.href} title="Open the matching search">
                    {i.label}
                  </Link>
                ) : (
                  i.label
                )}
              </span>
              <span className="amount">
                {money(i.value)}
                {compared && <span className="sr-only"> ({`${compareLabel}: ${money(i.compare)}`})</span>}
              </span>
            </div>
            <div className="bar-track" aria-hidden="true">
              <div className="bar-fill" style={{ width: `${(i.value / max) * 100}%` }} />
              {i.compare !== undefined && i.compare > 0 && (
                <div
                  className="bar-compare"
                  style={{ left: `${(i.compare / max) * 100}%` }}
                  title={compareLabel ? `${compareLabel}: ${money(i.compare)}` : undefined}
                />
              )}
            </div>
            {i.note && <div className="bar-note">{i.note}</div>}
          </li>
        );
      })}
    </ul>
  );
}
