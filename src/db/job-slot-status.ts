/**
 * A single-slot job's status as a status route reads it: a job still "running" long past its limit
 * (its worker died) is failed here with `timeoutMessage`, so a status read never reports it stuck.
 */
import type { Env } from "../env";
import type { Clock } from "../lib/clock";
import { jobSlot } from "./job-slot";
import type { SlotJob } from "./job-slot-state";

export async function readSlotStatus(
  env: Env,
  kind: string,
  clock: Clock,
  pastMs: number,
  timeoutMessage: string,
): Promise<SlotJob | null> {
  const slot = jobSlot(env, kind);
  const job = await slot.status();
  if (job?.status === "running" && clock().getTime() - Date.parse(job.started_at) > pastMs) {
    return (await slot.complete(job.id, { error: timeoutMessage })) ?? job;
  }
  return job;
}
