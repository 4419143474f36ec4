/**
 * scheduled(): runs the duties src/jobs/schedule.ts lists for a cron expression. One duty's
 * failure never stops the others.
 */
import type { Env } from "../env";
import type { Clock } from "../lib/clock";
import { log } from "../lib/log";
import { SCHEDULE } from "./schedule";

type CronTask = (env: Env, clock: Clock) => Promise<unknown>;

export interface Duty {
  name: string;
  run: CronTask;
}

/** Cron expression → its duties, in the order they run. */
export type Schedule = Readonly<Record<string, readonly Duty[]>>;

export { CRON } from "./crons";

/** The names of the duties that completed (tests pass their own schedule). */
export async function runCron(
  cron: string,
  env: Env,
  clock: Clock,
  schedule: Schedule = SCHEDULE,
): Promise<string[]> {
  const ran: string[] = [];
  for (const duty of schedule[cron] ?? []) {
    try {
      await duty.run(env, clock);
      ran.push(duty.name);
    } catch (err) {
      log("error", "cron.task_failed", { cron, task: duty.name, error: String(err) });
    }
  }
  return ran;
}
