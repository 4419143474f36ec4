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
