// A run that goes on in background steps: a bar, its words, and a muted line saying why it
// takes steps; or its error in words when it failed. Nothing once it is done.
import type { ReactNode } from "react";

export function StepProgress({
  run,
  testId,
  label,
  max,
  value,
  failed,
  children,
  why,
}: {
  run: { status: string; error?: string | null };
  testId: string;
  label: string;
  max: number;
  value: number;
  /** The words before the error when the run failed. */
  failed: string;
  children: ReactNode;
  why: string;
}) {
  if (run.status === "error")
    return (
      <p className="notice notice-error" role="alert" data-testid={testId}>
        {failed}: {run.error}
      </p>
    );
  if (run.status !== "running") return null;
  return (
    <div className="demo-progress" role="status" data-testid={testId}>
      <progress aria-label={label} max={Math.max(1, max)} value={value} />
      <p className="small">
        {children} <span className="muted">{why}</span>
      </p>
    </div>
  );
}
