import { DurableObject } from "cloudflare:workers";
import type { Env } from "../env";
import { type AcquireResult, acquire, finish, type Json, type Scalar, type SlotJob } from "./job-slot-state";

const DEFAULT_LEASE_MS = 15 * 60 * 1000;

/**
 * JobSlot: one instance per job kind (idFromName(kind)), SQLite-backed. Holds the single running
 * job and its progress so concurrent starts get 409 and status reads are consistent.
 */
export class JobSlot extends DurableObject<Env> {
  private read(): SlotJob | null {
    return (this.ctx.storage.kv.get("job") as SlotJob | undefined) ?? null;
  }

  async start(kind: string, leaseMs = DEFAULT_LEASE_MS): Promise<AcquireResult> {
    const res = acquire(this.read(), kind, crypto.randomUUID(), new Date().toISOString(), leaseMs);
    if (res.ok) this.ctx.storage.kv.put("job", res.job);
    return res;
  }

  async progress(id: string, progress: Record<string, Scalar | Scalar[]>): Promise<boolean> {
    const job = this.read();
    if (!job || job.id !== id || job.status !== "running") return false;
    this.ctx.storage.kv.put("job", { ...job, progress: { ...job.progress, ...progress } });
    return true;
  }

  async complete(id: string, outcome: { result?: Json; error?: string }): Promise<SlotJob | null> {
    const job = this.read();
    if (!job || job.id !== id) return null;
    const done = finish(job, new Date().toISOString(), outcome);
    this.ctx.storage.kv.put("job", done);
    return done;
  }

  async status(): Promise<SlotJob | null> {
    return this.read();
  }
}

export function jobSlot(env: Env, kind: string) {
  return env.JOB_SLOT.get(env.JOB_SLOT.idFromName(kind));
}

/** No step for this long: a stepped run died (its status read fails it). */
const STALE_MS = 15 * 60 * 1000;

/**
 * A run's job as a status read sees it (`updated_at` in its progress is its last step, else its
 * start): one idle past `staleMs` (its worker died) is failed here with `stalled` (after `onStale`,
 * e.g. its files dropped), so a status read never reports it stuck. Beside it, the fields every
 * run's status route returns.
 */
export async function steppedRun(
  env: Env,
  kind: string,
  now: Date,
  stalled: string,
  opts: { staleMs?: number; onStale?: (job: SlotJob) => Promise<unknown> } = {},
) {
  const slot = jobSlot(env, kind);
  let job = await slot.status();
  if (job?.status === "running") {
    const last = Date.parse(String(job.progress.updated_at ?? job.started_at));
    if (now.getTime() - last > (opts.staleMs ?? STALE_MS)) {
      await opts.onStale?.(job);
      job = (await slot.complete(job.id, { error: stalled })) ?? job;
    }
  }
  return { job, view: runView(job) };
}

/** The fields of a stepped run's status (idle before any run). */
export function runView(job: SlotJob | null) {
  const status = !job
    ? "idle"
    : job.status === "running"
      ? "running"
      : job.status === "failed"
        ? "error"
        : "done";
  return {
    status: status as "idle" | "running" | "done" | "error",
    task_id: job?.id ?? null,
    started_at: job?.started_at ?? null,
    finished_at: job?.finished_at ?? null,
    error: job?.error ?? null,
  };
}
