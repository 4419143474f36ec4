/** Ledger retention: entries older than 90 days are pruned by the daily cron. */
import { CRON, registerCron } from "../../jobs/cron";
import { log } from "../../lib/log";
import { pruneBefore } from "./queries";
import { retentionCutoff } from "./rules";

registerCron(CRON.daily, "activity.retention", async (env, clock) => {
  const cutoff = retentionCutoff(clock());
  const removed = await pruneBefore(env.DB, cutoff);
  log("info", "activity.pruned", { removed, cutoff });
});
