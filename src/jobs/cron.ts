import type { Env } from "../env";
import type { Clock } from "../lib/clock";
import { log } from "../lib/log";

export type CronTask = (env: Env, clock: Clock) => Promise<void>;

export const CRON = {
  everyMinute: "* * * * *",
  daily: "30 3 * * *",
  monthly: "0 17 8 * *",
} as const;

const tasks: Record<string, { name: string; run: CronTask }[]> = {};

/** Domains register what runs on each schedule (poller, summaries, retention, backups). */
export function registerCron(cron: string, name: string, run: CronTask): void {
  const list = tasks[cron] ?? [];
  list.push({ name, run });
  tasks[cron] = list;
}

/** scheduled(): dispatch by cron expression; one task's failure never stops the others. */
export async function runCron(cron: string, env: Env, clock: Clock): Promise<string[]> {
  const ran: string[] = [];
  for (const task of tasks[cron] ?? []) {
    try {
      await task.run(env, clock);
      ran.push(task.name);
    } catch (err) {
      log("error", "cron.task_failed", { cron, task: task.name, error: String(err) });
    }
  }
  return ran;
}
