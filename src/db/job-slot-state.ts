/** Single-slot job state (pure): one running job per kind; 409 while one runs. */
export type Scalar = string | number | boolean | null;
export type Json = Record<string, Scalar | Scalar[]> | null;

export interface SlotJob {
  id: string;
  kind: string;
  status: "running" | "done" | "failed";
  started_at: string;
  finished_at: string | null;
  progress: Record<string, Scalar | Scalar[]>;
  result: Json;
  error: string | null;
}

export type AcquireResult = { ok: true; job: SlotJob } | { ok: false; job: SlotJob };

/** A running job older than its lease counts as abandoned and may be replaced. */
export function acquire(
  current: SlotJob | null,
  kind: string,
  id: string,
  nowIso: string,
  leaseMs: number,
): AcquireResult {
  if (current && current.status === "running") {
    const age = Date.parse(nowIso) - Date.parse(current.started_at);
    if (age < leaseMs) return { ok: false, job: current };
  }
  return {
    ok: true,
    job: {
      id,
      kind,
      status: "running",
      started_at: nowIso,
      finished_at: null,
      progress: {},
      result: null,
      error: null,
    },
  };
}

export function finish(
  current: SlotJob,
  nowIso: string,
  outcome: { result?: Json; error?: string },
): SlotJob {
  return {
    ...current,
    status: outcome.error ? "failed" : "done",
    finished_at: nowIso,
    result: outcome.result ?? null,
    error: outcome.error ?? null,
  };
}

/** The API's word for a job's state: a finished job leaves the slot idle, a failed one shows its error. */
export function statusWord(job: SlotJob | null): "running" | "error" | "idle" {
  if (job?.status === "running") return "running";
  return job?.status === "failed" ? "error" : "idle";
}
