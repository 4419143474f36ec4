/**
 * The cron expressions the Worker answers; wrangler.toml declares exactly these and
 * src/jobs/schedule.ts lists the duties of each (its type requires one list per expression).
 * Dependency-free so the local cron driver's test can read it anywhere.
 */
export const CRON = {
  everyMinute: "* * * * *",
  daily: "30 3 * * *",
  monthly: "0 17 8 * *",
} as const;

export type CronExpression = (typeof CRON)[keyof typeof CRON];
