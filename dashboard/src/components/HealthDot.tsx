import { useId } from "react";
import type { Health } from "../api/types";
import { navigate } from "../lib/router";

const WORDS: Record<string, string> = {
  ok: "All systems normal",
  degraded: "Degraded",
  stale: "Stale",
};

/**
 * ok / degraded / stale, with the reasons on hover or keyboard focus. While something needs
 * attention (quarantined emails, a bank whose wording changed), the dot opens Needs review.
 */
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
        aria-label={`Service health: ${label}${reasons.length > 0 ? " (open Needs review)" : ""}`}
        data-testid="health-dot"
        onClick={reasons.length > 0 ? () => navigate("/review") : undefined}
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
