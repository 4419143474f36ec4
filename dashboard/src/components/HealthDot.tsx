import { useId } from "react";
import type { Health } from "../api/types";

const WORDS: Record<string, string> = {
  ok: "All systems normal",
  degraded: "Degraded",
  stale: "Stale",
};

/** ok / degraded / stale, with the reasons on hover or keyboard focus. */
export function HealthDot({ health }: { health: Health | undefined }) {
  const tip = useId();
  const status = health?.status ?? "unknown";
  const reasons = health?.reasons ?? [];
  const label = health ? (WORDS[status] ?? status) : "Checking health…";
  return (
    <span className="health">
      <button
        type="button"
        className={`health-dot health-${status}`}
        aria-describedby={tip}
        aria-label={`Service health: ${label}`}
        data-testid="health-dot"
      />
      <span role="tooltip" id={tip} className="health-tip">
        <strong>{label}</strong>
        {reasons.length > 0 ? (
          <ul>
            {reasons.map((r) => (
              <li key={r}>{r}</li>
            ))}
          </ul>
        ) : (
          health && <span>Nothing needs attention.</span>
        )}
      </span>
    </span>
  );
}
